// SPDX-License-Identifier: MIT

/// Asks `attempt` every `interval` until it gives a value or `limit` passes (then nil): for a child
/// process or a socket, whose state changes on its own time, with no virtual clock to wait on. The
/// interval is a real sleep, so keep it short and the limit well above what a loaded machine takes.
package func poll<Value>(
    within limit: Duration, every interval: Duration = .milliseconds(50), _ attempt: () async -> Value?
) async throws -> Value? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
        if let value = await attempt() { return value }
        guard clock.now < deadline else { return nil }
        try await Task.sleep(for: interval)
    }
}
