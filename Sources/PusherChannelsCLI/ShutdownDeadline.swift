// SPDX-License-Identifier: MIT

@preconcurrency import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bound of `serve`'s shutdown: once SIGINT or SIGTERM asked for it, the process ends with
/// status 0 within ``seconds`` even if a connection or a webhook delivery still holds it (on a
/// dispatch queue, so a busy concurrency pool cannot delay it).
enum ShutdownDeadline {
    static let seconds = 4.5
    /// How long standard error gets to be written out before the exit (nobody may be reading it).
    static let flush = Duration.milliseconds(300)

    static func start() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds) {
            Output.error("serve: the shutdown took over \(Self.seconds) s; exiting")
            StandardErrorWriter.shared.finish(within: Self.flush)
            _exit(0)
        }
    }
}
