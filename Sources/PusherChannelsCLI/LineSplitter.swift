// SPDX-License-Identifier: MIT

/// Splits bytes into lines at `\n`, scanning each byte once, and holds at most
/// `maximumLineBytes` of a line: a longer line is dropped up to its newline and reported as
/// ``Line/tooLong(bytes:)`` instead.
struct LineSplitter {
    /// A line of input, or what stood for one that was too long.
    enum Line: Sendable, Hashable {
        /// A line (without its newline), decoded as UTF-8.
        case text(String)
        /// A line that is not UTF-8 text; `bytes` counts it.
        case notUTF8(bytes: Int)
        /// A line of more than the limit, dropped; `bytes` counts what was dropped up to the
        /// newline (or the end of input).
        case tooLong(bytes: Int)
    }

    let maximumLineBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of the current line dropped so far; nil while the line is within the limit.
    private var dropped: Int?

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The lines that `bytes` completes.
    mutating func append(_ bytes: some Collection<UInt8>) -> [Line] {
        var lines: [Line] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let part = rest[..<(newline ?? rest.endIndex)]
            if let dropped = self.dropped {
                self.dropped = dropped + part.count
            } else if self.pending.count + part.count > self.maximumLineBytes {
                self.dropped = self.pending.count + part.count
                self.pending = []
            } else {
                self.pending.append(contentsOf: part)
            }
            guard let newline else { break }
            lines.append(self.endLine())
            rest = rest[rest.index(after: newline)...]
        }
        return lines
    }

    /// The last line, when the input did not end with a newline.
    mutating func finish() -> Line? {
        guard self.dropped != nil || !self.pending.isEmpty else { return nil }
        return self.endLine()
    }

    private mutating func endLine() -> Line {
        defer {
            self.pending = []
            self.dropped = nil
        }
        if let dropped { return .tooLong(bytes: dropped) }
        let text = String(decoding: self.pending, as: UTF8.self)
        // Decoding replaces invalid sequences, which changes the bytes.
        guard text.utf8.elementsEqual(self.pending) else { return .notUTF8(bytes: self.pending.count) }
        return .text(text)
    }
}
