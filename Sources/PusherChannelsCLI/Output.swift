// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error (through ``StandardErrorWriter``, which never blocks; every line made safe for a
/// terminal) and, for `bench` and the HTTP API commands, standard output through stdio, flushed
/// after every line. `listen` writes standard output through an
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

    /// Queues the line on ``StandardErrorWriter/shared``: never blocks; a line that does not fit
    /// while standard error is not read is dropped and counted.
    private static func writeError(_ text: String) {
        StandardErrorWriter.shared.write(text)
    }

    static func flush() {
        fflush(nil)
    }
}
