// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

/// What opening one encrypted event costs, for the `Secretbox` benchmark in `Benchmarks/`: an event's
/// data `{"nonce":…,"ciphertext":…}` sealed once, then opened as a client opens every event (the
/// fields read, base64 decoded, the box opened, the plaintext checked as UTF-8 into a string), or
/// the box alone, with the Swift implementation or libsodium. In this package-only module, so
/// `SecretBox` and `EncryptedPayload` stay `package`.
public struct SecretBoxWorkload: Sendable {
    /// A secretbox implementation.
    public enum Implementation: String, Sendable, CaseIterable {
        case swift
        case libsodium

        /// The implementations this build has: libsodium only where it is linked (Linux).
        public static var available: [Self] {
            #if canImport(CSodium)
            return [.swift, .libsodium]
            #else
            return [.swift]
            #endif
        }

        var backend: SecretBox.Backend { self == .swift ? .swift : .libsodium }
    }

    private let implementation: Implementation
    private let message: PusherMessage
    private let box: [UInt8]
    private let nonce: [UInt8]
    private let key: [UInt8]

    /// A workload opening events of `plaintextBytes` bytes of JSON text (at least 16) with `implementation`.
    public init(implementation: Implementation, plaintextBytes: Int = 100) {
        let key = (0..<32).map { UInt8($0) }
        let nonce = (0..<24).map { UInt8($0 &* 7) }
        let plaintext = #"{"payload":""# + String(repeating: "x", count: max(0, plaintextBytes - 14)) + #""}"#
        let data = SecretBox.$forcedBackend.withValue(.swift) {
            EncryptedPayload.seal(plaintext, key: key, nonce: nonce)!  // the Swift backend is always there
        }
        self.implementation = implementation
        self.message = PusherMessage(event: "e", channel: "private-encrypted-load", data: data)
        self.box = SecretBox.$forcedBackend.withValue(.swift) {
            SecretBox.seal(Array(plaintext.utf8), nonce: nonce, key: key)!
        }
        self.nonce = nonce
        self.key = key
    }

    /// Opens the event `times` times as a client does.
    ///
    /// - Returns: The plaintext bytes opened, so the work cannot be optimized away.
    public func openEvents(times: Int) -> Int {
        SecretBox.$forcedBackend.withValue(self.implementation.backend) {
            var total = 0
            for _ in 0..<times {
                guard case .plaintext(let text) = EncryptedPayload.open(self.message, key: self.key) else {
                    // Cannot happen: `init` sealed this very event under this key, and the secretbox
                    // tests check that every backend opens what it sealed; a benchmark that measured
                    // refusals instead would report a wrong figure, so it stops.
                    fatalError("the benchmark's event does not open")
                }
                total &+= text.utf8.count
            }
            return total
        }
    }

    /// Opens the box alone (`SecretBox.openText` on the decoded bytes) `times` times.
    ///
    /// - Returns: The plaintext bytes opened.
    public func openBoxes(times: Int) -> Int {
        SecretBox.$forcedBackend.withValue(self.implementation.backend) {
            self.box.withUnsafeBufferPointer { box in
                self.nonce.withUnsafeBufferPointer { nonce in
                    var total = 0
                    for _ in 0..<times {
                        guard case .plaintext(let text) = SecretBox.openText(box, nonce: nonce, key: self.key) else {
                            // Cannot happen, as above: the box was sealed by `init` under this key.
                            fatalError("the benchmark's box does not open")
                        }
                        total &+= text.utf8.count
                    }
                    return total
                }
            }
        }
    }
}
