// SPDX-License-Identifier: MIT

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Standard input read whole, within a bound, for `trigger --data -`.
extension StandardInput {
    /// Longest input `--data -` reads, and longest line `--batch` reads (bytes).
    static let maximumBytes = 1 << 20

    /// All of standard input as UTF-8 text, one trailing line break dropped; a usage error when
    /// it is longer than `limit` bytes or not UTF-8.
    static func text(limit: Int = Self.maximumBytes) async throws(CLIError) -> String {
        try await Self.onReadingThread { () throws(CLIError) -> String in
            var bytes: [UInt8] = []
            let complete = Self.readChunks { chunk in
                bytes += chunk
                return bytes.count <= limit
            }
            guard complete else { throw CLIError("standard input is longer than \(limit) bytes") }
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard let text = Self.utf8Text(bytes[...]) else { throw CLIError("standard input is not UTF-8 text") }
            return text
        }
    }

    /// `bytes` as a string when they are valid UTF-8.
    private static func utf8Text(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces invalid sequences, which changes the bytes.
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Runs `body` (which blocks, reading) on a thread of its own, not on the concurrency pool.
    private static func onReadingThread<Value: Sendable>(
        _ body: @escaping @Sendable () throws(CLIError) -> Value
    ) async throws(CLIError) -> Value {
        let result = await withCheckedContinuation { (finished: CheckedContinuation<Result<Value, CLIError>, Never>) in
            DispatchQueue(label: "pusher-channels.stdin").async {
                do throws(CLIError) {
                    finished.resume(returning: .success(try body()))
                } catch {
                    finished.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Reads standard input with `read(2)`, handing each chunk to `consume` until the end or until
    /// `consume` returns false; returns whether it read to the end.
    private static func readChunks(_ consume: ([UInt8]) -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return true }
            guard consume(Array(buffer[0..<count])) else { return false }
        }
    }
}
