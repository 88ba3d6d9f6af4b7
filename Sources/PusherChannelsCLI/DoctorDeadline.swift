// SPDX-License-Identifier: MIT

/// The deadlines of `doctor`: 10 s for every request (and every wait for a server's answer), 60 s
/// for the whole run.
enum DoctorDeadline {
    /// Every request, handshake and wait for an answer.
    static let request = Duration.seconds(10)
    /// When the checks still running are reported as failed and the run ends: a little before
    /// 60 s, so that the lines and the exit fit in it.
    static let run = Duration.seconds(56)

    /// The outcome of ``within(_:_:)``.
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case timedOut
    }

    /// Runs `body` for at most `limit`: its result, or ``Outcome/timedOut`` (and `body` cancelled)
    /// when it takes longer. `body` must end when cancelled (AsyncHTTPClient requests, the client's
    /// sequences and waits do).
    static func within<Value: Sendable>(
        _ limit: Duration = Self.request, _ body: @escaping @Sendable () async -> Value
    ) async -> Outcome<Value> {
        await withTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask { .finished(await body()) }
            group.addTask {
                // A cancelled sleep (the body finished) ends this child at once.
                try? await Task.sleep(for: limit)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
    }
}
