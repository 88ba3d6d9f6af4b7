// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Pusher errors")
struct PusherErrorTests {
    struct Underlying: Error, Sendable, CustomStringConvertible {
        var description: String { "underlying" }
    }

    static func error(
        closeCode: Int? = nil,
        channel: String? = nil,
        httpStatus: Int? = nil,
        responseBody: String? = nil,
        cause: (any Error & Sendable)? = nil
    ) -> PusherError {
        var error = PusherError(
            .authorizationFailed, "auth endpoint answered 403", closeCode: closeCode, channel: channel, cause: cause)
        error.httpStatus = httpStatus
        error.responseBody = responseBody
        return error
    }

    @Test(
        "the description has the code, the message and every detail there is",
        arguments: [
            (error(), "authorizationFailed: auth endpoint answered 403"),
            (error(closeCode: 4009), "authorizationFailed: auth endpoint answered 403 (code 4009)"),
            (error(channel: "private-a"), "authorizationFailed: auth endpoint answered 403 [channel private-a]"),
            (error(httpStatus: 403, responseBody: "no"), "authorizationFailed: auth endpoint answered 403 (HTTP 403)"),
            (
                error(closeCode: 1, channel: "c", httpStatus: 500, cause: Underlying()),
                "authorizationFailed: auth endpoint answered 403 (code 1) [channel c] (HTTP 500) (cause: underlying)"
            ),
        ]
    )
    func descriptions(error: PusherError, description: String) {
        #expect(error.description == description)
    }

    @Test("equality covers every field but the cause, and equal errors hash alike")
    func equality() {
        #expect(Self.error(cause: Underlying()) == Self.error())
        #expect(Self.error(cause: Underlying()).hashValue == Self.error().hashValue)
        let different = [
            Self.error(closeCode: 4000), Self.error(channel: "c"), Self.error(httpStatus: 401),
            Self.error(responseBody: "body"),
            PusherError(.authorizationRequired, "auth endpoint answered 403"),
            PusherError(.authorizationFailed, "other"),
        ]
        for error in different {
            #expect(error != Self.error(), "\(error)")
        }
    }

    @Test(
        "codes compare by kind and describe themselves by name",
        arguments: [
            (PusherError.Code.connectionClosed, "connectionClosed"), (.transportFailed, "transportFailed"),
            (.handshakeTimeout, "handshakeTimeout"), (.pongTimeout, "pongTimeout"),
            (.reconnectAttemptsExhausted, "reconnectAttemptsExhausted"), (.serverError, "serverError"),
            (.malformedMessage, "malformedMessage"), (.invalidChannelName, "invalidChannelName"),
            (.decodingFailed, "decodingFailed"), (.consumerTooSlow, "consumerTooSlow"),
            (.subscriptionFailed, "subscriptionFailed"), (.authorizationRequired, "authorizationRequired"),
            (.authorizationFailed, "authorizationFailed"), (.clientEventRejected, "clientEventRejected"),
            (.signInFailed, "signInFailed"), (.encryptionUnavailable, "encryptionUnavailable"),
            (.alreadyRunning, "alreadyRunning"), (.invalidConfiguration, "invalidConfiguration"),
        ]
    )
    func codes(code: PusherError.Code, name: String) {
        #expect(code.description == name)
        #expect(code == code)
        #expect(code != (code == .serverError ? .malformedMessage : .serverError))
    }
}
