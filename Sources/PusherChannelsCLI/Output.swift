// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output, flushed after every line so that a pipe (`| jq`, a test) sees each event as it
/// arrives, and standard error (unbuffered).
enum Output {
    static func line(_ text: String) {
        print(text)
        // Standard input is never read through stdio (see `standardInputLines`), so flushing every
        // stream cannot wait on its lock.
        fflush(nil)
    }

    static func error(_ text: String) {
        let line = text + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    static func flush() {
        fflush(nil)
    }
}
