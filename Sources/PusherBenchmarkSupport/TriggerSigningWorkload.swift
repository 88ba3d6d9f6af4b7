// SPDX-License-Identifier: MIT

import PusherChannelsServer

/// What one trigger costs before it reaches the network, for the `Publish` benchmark in
/// `Benchmarks/`: the request built from the call's arguments (every check, the JSON body
/// serialized once), signed (`body_md5`, HMAC-SHA256) and its query string percent-encoded, as
/// `PusherServer.trigger(channel:event:data:socketID:info:)` does before sending. In this
/// package-only module, so the builder and the signer stay `package`.
public struct TriggerSigningWorkload: Sendable {
    private let builder: RequestBuilder
    private let signer: RequestSigner
    private let channel: String
    private let event: String
    private let data: String
    private let timestamp: Int

    /// A workload that signs a trigger of `data` on `channel` with `configuration`'s key and secret.
    ///
    /// - Parameters:
    ///   - configuration: The app, key, secret and limits.
    ///   - channel: The trigger's channel (not an encrypted one: the nonce would need randomness).
    ///   - event: The event's name.
    ///   - data: The event's data.
    ///   - timestamp: The signing timestamp, fixed so that every run signs the same request.
    public init(
        configuration: PusherServerConfiguration, channel: String, event: String, data: String, timestamp: Int
    ) {
        self.builder = RequestBuilder(configuration: configuration)
        self.signer = RequestSigner(key: configuration.key, secret: configuration.secret)
        self.channel = channel
        self.event = event
        self.data = data
        self.timestamp = timestamp
    }

    /// Builds and signs one trigger.
    ///
    /// - Returns: The bytes of the request target and body, so the work cannot be optimized away.
    /// - Throws: ``PusherServerError`` when the arguments are refused, as the trigger would be.
    public func signOnce() throws(PusherServerError) -> Int {
        let request = try self.builder.trigger(
            channels: [self.channel], event: self.event, data: self.data, socketID: nil, info: [], nonce: { [] })
        let signed = try self.signer.sign(request, timestamp: self.timestamp)
        return signed.target.utf8.count + signed.body.count
    }
}
