// SPDX-License-Identifier: MIT

#if canImport(CSodium)
import CSodium
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SecretBox {
    /// Which implementation seals and opens boxes.
    package enum Backend: Sendable, Hashable {
        /// The system's libsodium (Linux, the default there).
        case libsodium
        /// ``XSalsa20Poly1305``, this package's own (Apple platforms; Linux with `PUSHER_CRYPTO=swift`).
        case swift
        /// Neither: encrypted channels are refused with `encryptionUnavailable`. Only through
        /// ``forcedBackend``, for tests of that path.
        case unavailable
    }

    /// The process's implementation, chosen once: libsodium where it is linked (Linux), unless the
    /// environment variable `PUSHER_CRYPTO` is `swift` when this is first read; the Swift one everywhere
    /// else, and where libsodium cannot start.
    package static let processBackend: Backend = {
        #if canImport(CSodium)
        if let requested = getenv("PUSHER_CRYPTO"), String(cString: requested) == "swift" {
            return .swift
        }
        // `sodium_init` is thread-safe and idempotent; it fails only when the system has no entropy
        // source, which libsodium's random nonces need.
        return sodium_init() >= 0 ? .libsodium : .swift
        #else
        return .swift
        #endif
    }()

    /// Overrides ``processBackend`` for the current task and the tasks it creates, and nothing else:
    /// tests run the Swift implementation, or none, beside tests that use the process's, in parallel.
    /// Whatever reads the backend outside those tasks (a client's event loop, another test) is not
    /// affected; a `PusherClient` reads ``isAvailable`` once, when it is made.
    @TaskLocal package static var forcedBackend: Backend?

    /// The implementation in use here: ``forcedBackend`` if set, else ``processBackend``.
    package static var backend: Backend { Self.forcedBackend ?? Self.processBackend }
}
