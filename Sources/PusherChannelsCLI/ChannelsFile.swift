// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `listen --channels-file PATH`: channel names one a line, for more channels than is practical
/// with `--channel` flags (10,000 of them take the argument parser seconds). Bounded: at most
/// ``maximumBytes`` of file and ``maximumChannels`` names.
enum ChannelsFile {
    /// The longest file read (16 MiB: 100,000 names of 164 bytes fit).
    static let maximumBytes = 16 << 20
    /// The most channels one `listen` follows, `--channel` and file names together.
    static let maximumChannels = 100_000

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
    ///
    /// - Throws: A usage error when the file cannot be read, is longer than ``maximumBytes``, or
    ///   the names are more than ``maximumChannels``.
    static func merging(_ names: [String], withFile path: String?) throws(CLIError) -> [String] {
        var all = names
        if let path {
            let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIError("cannot read --channels-file \(path): \(String(cString: strerror(errno)))")
            }
            defer { if descriptor != 0 { close(descriptor) } }
            let data = try Self.readAll(descriptor, path: path)
            all += Self.parse(String(decoding: data, as: UTF8.self))
        }
        var seen = Set<String>()
        let unique = all.filter { seen.insert($0).inserted }
        guard unique.count <= Self.maximumChannels else {
            throw CLIError(
                "--channel and --channels-file name \(unique.count) channels, more than \(Self.maximumChannels)")
        }
        return unique
    }

    /// Everything `descriptor` holds up to its end (blocks), at most ``maximumBytes``.
    private static func readAll(_ descriptor: Int32, path: String) throws(CLIError) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw CLIError("cannot read --channels-file \(path): \(String(cString: strerror(errno)))")
            }
            guard count > 0 else { return all }
            guard all.count + count <= Self.maximumBytes else {
                throw CLIError("--channels-file \(path) is longer than \(Self.maximumBytes) bytes")
            }
            all += buffer[0..<count]
        }
    }
}
