// SPDX-License-Identifier: MIT

@preconcurrency import Dispatch
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM for `listen`: the first one asks for a graceful end (``first()`` returns),
/// a second one ends the process at once with 128 plus the signal's number. The handlers run on a
/// dispatch queue of their own, so the second signal works even when the concurrency pool is busy.
final class SignalWatcher: Sendable {
    private let received: AsyncStream<Int32>

    private init(received: AsyncStream<Int32>) {
        self.received = received
    }

    /// Starts watching `signals`; returns once the handlers are in place.
    static func start(_ signals: [Int32] = [SIGINT, SIGTERM]) async -> SignalWatcher {
        let queue = DispatchQueue(label: "pusher-channels.signals")
        let (received, continuation) = AsyncStream.makeStream(of: Int32.self)
        let count = NIOLockedValueBox(0)
        for number in signals {
            #if canImport(Darwin)
            // Darwin delivers signal sources through kqueue only when the signal itself is ignored.
            signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            // The handler holds the source: it watches for the rest of the process's life.
            source.setEventHandler {
                // Signals that arrived together are delivered at once: `data` counts them.
                let times = max(1, Int(source.data))
                let seen = count.withLockedValue { count in
                    count += times
                    return count
                }
                if seen == 1 {
                    continuation.yield(number)
                } else {
                    // What is buffered for standard error goes out first, briefly (nobody may read it).
                    StandardErrorWriter.shared.finish(within: .milliseconds(200))
                    _exit(ExitStatus.interruptedTwice(signal: number))
                }
            }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
        }
        return SignalWatcher(received: received)
    }

    /// Returns the first signal received, or nil when the task is cancelled first.
    func first() async -> Int32? {
        var iterator = self.received.makeAsyncIterator()
        return await iterator.next()
    }
}
