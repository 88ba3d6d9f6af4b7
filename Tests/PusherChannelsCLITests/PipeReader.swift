// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor (the read end of a child's output pipe) on a thread of its own with
/// `poll(2)` and `read(2)` until end of file or ``stop()``, then closes it.
///
/// Foundation's `readabilityHandler` is not used: closing a handle while its dispatch source is
/// being torn down can crash libdispatch.
final class PipeReader: Sendable {
    private let descriptor: Int32
    /// A pipe that wakes the thread for ``stop()``.
    private let wake: (read: Int32, write: Int32)
    private let ended = NIOLockedValueBox(false)

    /// Starts reading `descriptor`, which the reader then owns.
    init(descriptor: Int32, onData: @escaping @Sendable ([UInt8]) -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.descriptor = descriptor
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe(2) failed")
        // Not for the children the tests start.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.wake = (fds[0], fds[1])
        let (wake, ended) = (self.wake, self.ended)
        let thread = Thread {
            var watched = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            var buffer = [UInt8](repeating: 0, count: 65536)
            reading: while true {
                let ready = poll(&watched, 2, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0, watched[1].revents == 0 else { break }
                guard watched[0].revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                switch count {
                case 1...: onData(Array(buffer[0..<count]))
                case 0: break reading
                default: if errno != EINTR { break reading }
                }
            }
            close(descriptor)
            ended.withLockedValue { ended in
                ended = true
                close(wake.read)
                close(wake.write)
            }
            onEnd()
        }
        thread.start()
    }

    /// Stops reading and closes the descriptor (the writer then gets EPIPE).
    func stop() {
        self.ended.withLockedValue { ended in
            guard !ended else { return }
            var byte: UInt8 = 1
            _ = write(self.wake.write, &byte, 1)
        }
    }
}
