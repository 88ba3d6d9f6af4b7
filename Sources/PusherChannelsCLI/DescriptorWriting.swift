// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking `write(2)` of a whole buffer, shared by the standard output and standard error writers
/// (each calls it on a queue of its own, so only that queue's thread can block).
enum DescriptorWriting {
    /// Writes every byte of `bytes` to `descriptor`, retrying on `EINTR` and waiting with `poll` on
    /// `EAGAIN` (a descriptor a parent process made non-blocking); false when the output is gone
    /// (`EPIPE`) or broken.
    static func writeAll(to descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&writable, 1, -1)
                default:
                    return false
                }
            }
            return true
        }
    }
}
