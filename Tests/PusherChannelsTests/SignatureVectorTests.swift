// SPDX-License-Identifier: MIT

import PusherChannels
import Testing

/// Known answers produced by the official Pusher server library for Python (pusher 3.3.4); the same
/// values as ../shared/vectors/pusher-official.json, copied here so the tests run anywhere.
@Suite("Signatures match the official server library")
struct SignatureVectorTests {
    static let key = "278d425bdf160c739803"
    static let secret = "7ad3773142a6692b25b8"

    @Test(
        "private channel signatures",
        arguments: [
            (
                "1234.1234", "private-foobar",
                "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"
            ),
            (
                "123.456", "private-chat",
                "278d425bdf160c739803:351edc4adcd9a8460625eccdfef87095e111b12e13e07ef0b31c966ebee5a56b"
            ),
            (
                "1234.1234", "private-encrypted-foobar",
                "278d425bdf160c739803:e6a18892d037c5d5e76a2265df4f086ffc38631605530dfd214aa5bff495f533"
            ),
        ]
    )
    func privateChannels(socketID: String, channel: String, auth: String) {
        let authorization = PusherSignature.channelAuthorization(
            key: Self.key, secret: Self.secret, socketID: socketID, channel: channel)
        #expect(authorization.auth == auth)
        #expect(authorization.channelData == nil)
    }

    @Test(
        "presence channel signatures cover the exact channel_data string",
        arguments: [
            (
                #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#,
                "278d425bdf160c739803:5b8808f3035fec2e4157c6b430a06d5b0de16d174e1a779e0e2b64d9983bde27"
            ),
            (
                #"{"user_id":10,"user_info":{"name":"Mr. Channels"}}"#,
                "278d425bdf160c739803:31935e7d86dba64c2a90aed31fdc61869f9b22ba9d8863bba239c03ca481bc80"
            ),
        ]
    )
    func presenceChannels(channelData: String, auth: String) {
        let authorization = PusherSignature.channelAuthorization(
            key: Self.key,
            secret: Self.secret,
            socketID: "1234.1234",
            channel: "presence-foobar",
            channelData: channelData
        )
        #expect(authorization.auth == auth)
        #expect(authorization.channelData == channelData)
    }

    @Test("user sign-in signature")
    func userSignIn() {
        let auth = PusherSignature.userAuthentication(
            key: Self.key, secret: Self.secret, socketID: "1234.1234", userData: #"{"id":"12345"}"#)
        #expect(auth == "278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba")
    }
}
