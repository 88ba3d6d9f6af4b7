// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `listen --channels-file PATH`: channel names one a line, for more channels than is practical
/// with `--channel` flags (10,000 of them take the argument parser seconds).
enum ChannelsFile {
    /// The names in `text`: one a line, surrounding whitespace trimmed; blank lines and lines
    /// starting with `#` are skipped.
    static func parse(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let name = line.trimmingWhitespace()
            return name.isEmpty || name.hasPrefix("#") ? nil : name
        }
    }

    /// The `--channel` names followed by those of the file at `path` (`-` for standard input),
    /// each name once, in order of first appearance.
    static func merging(_ names: [String], withFile path: String?) throws(CLIError) -> [String] {
        var all = names
        if let path {
            let data: [UInt8]
            if path == "-" {
                data = StandardInput.readAll()
            } else {
                do {
                    data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw CLIError("cannot read --channels-file \(path): \(ListenCredentials.reason(error))")
                }
            }
            all += Self.parse(String(decoding: data, as: UTF8.self))
        }
        var seen = Set<String>()
        return all.filter { seen.insert($0).inserted }
    }
}
