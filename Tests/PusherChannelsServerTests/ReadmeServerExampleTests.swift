// SPDX-License-Identifier: MIT

import PusherChannelsServer
import PusherCrypto
import Testing

/// The README's "Authorizing your clients and receiving webhooks" example, kept here so it compiles
/// and runs.
@Suite struct ReadmeServerExampleTests {
    /// The example as written, with its free names as parameters.
    static func example(
        appID: String, key: String, secret: String, masterKey: PusherServerConfiguration.MasterKey?, body: String,
        keyHeader: String?, signatureHeader: String?, bytes: [UInt8]
    ) throws -> (json: String, webhook: Webhook) {
        let server = PusherServer(
            configuration: try PusherServerConfiguration(
                appID: appID, key: key, secret: secret, cluster: "eu", encryptionMasterKey: masterKey))

        let request = try AuthorizationRequest(formBody: body)
        let json =
            request.channelName == nil
            ? try server.authenticateUser(socketID: request.socketID, user: PusherUser(id: "42")).json
            : try server.authorize(request, member: PresenceMember(userID: "42")).json

        let webhook = try server.webhookVerifier.verify(key: keyHeader, signature: signatureHeader, body: bytes)
        for event in webhook.events { print(event.kind, event.channel ?? "", event.data ?? "") }
        return (json, webhook)
    }

    @Test func theExampleRuns() throws {
        let body = #"{"time_ms":1,"events":[{"name":"channel_occupied","channel":"presence-room"}]}"#
        let (json, webhook) = try Self.example(
            appID: "1234", key: Vectors.key, secret: Vectors.secret,
            masterKey: PusherServerConfiguration.MasterKey(base64: Vectors.masterKeyBase64),
            body: "socket_id=1234.1234&channel_name=presence-room", keyHeader: Vectors.key,
            signatureHeader: HMACSHA256.hex(key: Vectors.secret, message: Array(body.utf8)), bytes: Array(body.utf8))
        let answer = try JSONValue(parsing: json)
        #expect(answer["channel_data"] == #"{"user_id":"42"}"#)
        #expect(
            answer["auth"]?.stringValue
                == PusherSignature.channelAuthorization(
                    key: Vectors.key, secret: Vectors.secret, socketID: "1234.1234", channel: "presence-room",
                    channelData: #"{"user_id":"42"}"#
                ).auth)
        #expect(webhook.events.map(\.kind) == [.channelOccupied])
    }
}
