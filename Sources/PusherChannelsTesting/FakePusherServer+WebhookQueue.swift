// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// The webhooks of one target, in order, for the delivery task of that target alone (a
    /// receiver that does not answer delays only its own webhooks).
    struct WebhookQueue: Sendable {
        /// The receiver, with its key and secret filled in.
        let target: WebhookTarget
        /// The bodies to POST to it.
        let bodies: AsyncStream<[UInt8]>
    }
}
