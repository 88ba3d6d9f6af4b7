// SPDX-License-Identifier: MIT

extension PusherServer {
    /// A verifier for webhooks signed with this configuration's key and secret, decrypting the client
    /// events of private-encrypted channels with its encryption master key (when it has one).
    public var webhookVerifier: WebhookVerifier {
        WebhookVerifier(
            credentials: [WebhookCredential(key: self.configuration.key, secret: self.configuration.secret)],
            masterKey: self.configuration.encryptionMasterKey
        )
    }
}
