// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherTestSupport

/// The answers of the small endpoints `DoctorCommandTests` run `doctor` against: auth endpoints
/// that sign (rightly or not) and webhook receivers that verify (rightly or not).
enum DoctorTestEndpoints {
    static let key = "doctor-key"
    static let secret = "doctor-secret-value"
    static let appID = "doctor-app"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    /// The decoded form fields of a request body.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                PercentEncoding.decode($0, plusAsSpace: true) ?? String($0)
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    /// A 200 answer with this JSON and `application/json`.
    static func json(_ text: String, type: String = "application/json") -> LoopbackHTTPServer.Reply {
        .respond(status: 200, headers: [("Content-Type", type)], body: Array(text.utf8))
    }

    /// What to change in an otherwise correct auth endpoint.
    struct AuthFlaws: OptionSet, Sendable {
        let rawValue: Int
        /// Presence answers carry no channel_data (and sign socket_id:channel_name).
        static let noChannelData = AuthFlaws(rawValue: 1)
        /// Encrypted answers carry no shared_secret.
        static let noSharedSecret = AuthFlaws(rawValue: 2)
    }

    /// An auth endpoint signing with `secret` (the app's by default), with `flaws`.
    static func auth(secret: String = Self.secret, flaws: AuthFlaws = [])
        -> @Sendable (LoopbackHTTPServer.Request)
        -> LoopbackHTTPServer.Reply
    {
        { request in
            let fields = Self.form(request.body)
            guard let socketID = fields["socket_id"], let channel = fields["channel_name"] else {
                return .respond(status: 400, body: Array("no socket_id or channel_name".utf8))
            }
            let isPresence = channel.hasPrefix("presence-")
            let channelData = isPresence && !flaws.contains(.noChannelData) ? #"{"user_id":"u-1"}"# : nil
            let authorization = PusherSignature.channelAuthorization(
                key: Self.key, secret: secret, socketID: socketID, channel: channel, channelData: channelData)
            var text = #"{"auth":"\#(authorization.auth)""#
            if let channelData { text += #","channel_data":"# + JSONValue.string(channelData).jsonText }
            if channel.hasPrefix("private-encrypted-") && !flaws.contains(.noSharedSecret) {
                let shared = try! EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: Self.masterKey)
                text += #","shared_secret":"\#(shared)""#
            }
            return Self.json(text + "}")
        }
    }

    /// A webhook receiver that checks X-Pusher-Key and the HMAC of `signedText(body)`: the raw
    /// body by default, as it should.
    static func webhookReceiver(signedText: @escaping @Sendable (String) -> String = { $0 })
        -> @Sendable (
            LoopbackHTTPServer.Request
        ) -> LoopbackHTTPServer.Reply
    {
        { request in
            let expected = HMACSHA256.hex(key: Self.secret, message: signedText(request.body))
            guard request.headers["x-pusher-key"] == Self.key, request.headers["x-pusher-signature"] == expected else {
                return .respond(status: 401, body: Array("invalid signature".utf8))
            }
            return .respond(status: 200, body: Array("ok".utf8))
        }
    }

    /// JSON text without the whitespace outside its strings: what `JSON.stringify(JSON.parse(body))`
    /// gives for an object read in order.
    static func compacted(_ text: String) -> String {
        var output = ""
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                output.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
                output.append(character)
            } else if !character.isWhitespace {
                output.append(character)
            }
        }
        return output
    }
}
