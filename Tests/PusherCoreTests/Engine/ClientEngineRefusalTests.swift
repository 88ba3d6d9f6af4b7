// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// What a server's refusal of a subscription tells the app.
@Suite("Client engine: refusals keep what the server said")
struct ClientEngineRefusalTests {
    /// The error the consumers of `channel` are finished with when `raw` arrives.
    static func refusal(_ raw: String, channel: String = "feed") throws -> PusherError? {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel(channel, eventName: nil, authorization: nil))
        return script.receive(raw).compactMap { if case .finishConsumer(_, let error?) = $0 { error } else { nil } }
            .first
    }

    @Test(
        "pusher:subscription_error as soketi, Reverb and serve send it: type, error and status are kept",
        arguments: [
            // soketi and Reverb: data as an object.
            #"{"event":"pusher:subscription_error","channel":"feed","data":{"type":"AuthError","error":"Invalid signature: Expected HMAC SHA256 hex digest of 1.2:feed","status":401}}"#,
            // serve: data as a JSON string.
            #"{"event":"pusher:subscription_error","channel":"feed","data":"{\"type\":\"AuthError\",\"error\":\"Invalid signature: Expected HMAC SHA256 hex digest of 1.2:feed\",\"status\":401}"}"#,
        ]
    )
    func soketiRefusal(raw: String) throws {
        let error = try #require(try Self.refusal(raw))
        #expect(error.code == .subscriptionFailed)
        #expect(error.message == "Invalid signature: Expected HMAC SHA256 hex digest of 1.2:feed")
        #expect(error.httpStatus == 401)
        #expect(error.serverErrorType == "AuthError")
        #expect(error.channel == "feed")
        #expect(
            error.description
                == "subscriptionFailed: Invalid signature: Expected HMAC SHA256 hex digest of 1.2:feed"
                + " [channel feed] (HTTP 401) (type AuthError)")
    }

    @Test("a refusal with a message and a code keeps them; one without anything says server error")
    func otherShapes() throws {
        let withMessage = try #require(
            try Self.refusal(
                #"{"event":"pusher:subscription_error","channel":"feed","data":{"message":"nope","code":4009}}"#))
        #expect(withMessage.message == "nope")
        #expect(withMessage.closeCode == 4009)
        #expect(withMessage.httpStatus == nil && withMessage.serverErrorType == nil)
        let bare = try #require(try Self.refusal(#"{"event":"pusher:subscription_error","channel":"feed"}"#))
        #expect(bare.message == "server error")
    }
}
