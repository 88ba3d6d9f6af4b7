// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error (unbuffered; every line made safe for a terminal) and, for `bench`, standard
/// output through stdio, flushed after every line. `listen` writes standard output through an
/// ``OutputWriter`` instead.
enum Output {
    static func line(_ text: String) {
        print(text)
        // Standard input is never read through stdio (see `StandardInput`), so flushing every
        // stream cannot wait on its lock.
        fflush(nil)
    }

    /// Writes `text` and a newline to standard error, control characters escaped (it often holds
    /// text a server chose: close reasons, error messages, event names).
    static func error(_ text: String) {
        Self.writeError(TerminalText.escaped(text))
    }

    /// Writes a usage message of ArgumentParser (lines of this command's own text) to standard error.
    static func usage(_ text: String) {
        Self.writeError(text)
    }

    private static func writeError(_ text: String) {
        let line = Array((text + "\n").utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    static func flush() {
        fflush(nil)
    }
}
