// SPDX-License-Identifier: MIT

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, line by line.
enum StandardInput {
    /// The longest line kept (the client's default `maximumMessageSize`): a longer one is dropped
    /// up to its newline and reported as ``LineSplitter/Line/tooLong(bytes:)``.
    static let maximumLineBytes = 1 << 20

    /// Lines of standard input, read on a thread of their own (reading blocks) at most `capacity`
    /// lines ahead of the consumer (``StandardInputLines``).
    ///
    /// Reads the file descriptor with `read(2)`, not through stdio: a thread blocked in `readLine()`
    /// holds stdin's stdio lock, and flushing all streams at exit would wait for it forever.
    static func lines(maximumLineBytes: Int = Self.maximumLineBytes, capacity: Int = 16) -> StandardInputLines {
        StandardInputLines(capacity: capacity, maximumLineBytes: maximumLineBytes) { consume in
            Self.readChunks(consume)
        }
    }

    /// Reads standard input until its end, handing each chunk read to `body`.
    private static func readChunks(_ body: (ArraySlice<UInt8>) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            body(buffer[0..<count])
        }
    }
}
