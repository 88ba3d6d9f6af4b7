// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// Webhook credentials and verifiers keep their secrets and master key out of every text a
/// debugger, a log line or `dump` makes of them.
@Suite struct WebhookRedactionTests {
    static let secret = "s3cr3t-webhook-secret-value"
    static let oldSecret = "older-rotated-secret-value"
    static let masterKeyBytes = Array(repeating: UInt8(0xCD), count: 32)

    /// Every text Swift makes of `value`: description, debug description, interpolation, `dump` and
    /// the mirror's children.
    static func texts(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        let mirror = Mirror(reflecting: value)
        return [
            String(describing: value), String(reflecting: value), "\(value)", dumped,
            "\(mirror.children.map { "\($0.label ?? ""): \(String(reflecting: $0.value))" })",
        ]
    }

    static func expectRedacted(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts {
            #expect(!text.contains(Self.secret), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains(Self.oldSecret), "\(text)", sourceLocation: sourceLocation)
            // The master key's bytes, as numbers, hex or base64.
            #expect(!text.contains("205, 205"), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.lowercased().contains("cdcd"), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("zc3N"), "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aCredentialShowsItsKeyOnly() {
        let credential = WebhookCredential(key: "the-key", secret: Self.secret)
        let texts = Self.texts(of: credential)
        Self.expectRedacted(texts)
        #expect(texts.allSatisfy { $0.contains("the-key") })
        #expect(credential.description == "WebhookCredential(key: the-key, secret: redacted)")
        // The secret is still there to verify with.
        #expect(credential.secret == Self.secret)
    }

    @Test func aVerifierShowsItsKeysOnly() throws {
        let verifier = WebhookVerifier(
            credentials: [
                WebhookCredential(key: "new-key", secret: Self.secret),
                WebhookCredential(key: "old-key", secret: Self.oldSecret),
            ],
            masterKey: try PusherServerConfiguration.MasterKey(bytes: Self.masterKeyBytes)
        )
        let texts = Self.texts(of: verifier)
        Self.expectRedacted(texts)
        #expect(String(describing: verifier) == "WebhookVerifier(keys: [new-key, old-key], masterKey: set)")
        var dumped = ""
        dump(verifier, to: &dumped)
        #expect(dumped.contains("new-key") && dumped.contains("old-key") && dumped.contains("redacted"))
    }

    @Test func theServersVerifierIsRedactedToo() throws {
        let server = PusherServer(
            configuration: try PusherServerConfiguration(
                appID: "1", key: "app-key", secret: Self.secret, host: "127.0.0.1", port: 9, useTLS: false,
                encryptionMasterKey: try PusherServerConfiguration.MasterKey(bytes: Self.masterKeyBytes)))
        Self.expectRedacted(Self.texts(of: server.webhookVerifier))
        #expect(String(describing: server.webhookVerifier) == "WebhookVerifier(keys: [app-key], masterKey: set)")
        let withoutKey = WebhookVerifier(credentials: [WebhookCredential(key: "k", secret: Self.secret)])
        #expect(String(describing: withoutKey) == "WebhookVerifier(keys: [k], masterKey: none)")
        Self.expectRedacted(Self.texts(of: withoutKey))
    }
}
