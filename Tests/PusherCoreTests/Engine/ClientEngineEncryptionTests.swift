// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: encrypted channels")
struct ClientEngineEncryptionTests {
    /// Subscribes `private-encrypted-vault` with key "k" (the script's stand-in cipher).
    static func subscribed() throws -> (EngineScript, Int) {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("private-encrypted-vault", eventName: nil, authorization: nil)).id
        _ = script.engine.authorizationCompleted(
            channel: "private-encrypted-vault",
            socketID: "1.1",
            result: .success(.init(auth: "key:sig", sharedSecret: "k"))
        )
        _ = script.receive(EngineScript.succeeded("private-encrypted-vault"))
        return (script, id)
    }

    @Test("events are opened with the channel's key; a wrong key holds later events until one reload answers, in order")
    func reloadKeepsOrder() throws {
        var (script, id) = try Self.subscribed()
        #expect(
            script.receive(EngineScript.event("e", on: "private-encrypted-vault", data: "kone")).deliveries == [
                Delivery(id, "e", "one")
            ])
        let failed = script.receive(
            EngineScript.event("e", on: "private-encrypted-vault", data: "xtwo"),
            EngineScript.event("e", on: "private-encrypted-vault", data: "xthree")
        )
        #expect(failed == [.reloadKey(channel: "private-encrypted-vault", socketID: "1.1")])
        let reloaded = script.engine.keyReloaded(
            channel: "private-encrypted-vault", socketID: "1.1", result: .success(.init(auth: "a", sharedSecret: "x")))
        #expect(reloaded.deliveries == [Delivery(id, "e", "two"), Delivery(id, "e", "three")])
    }

    @Test("an authorization without a usable shared secret fails the subscription before anything is sent")
    func unusableSecret() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("private-encrypted-vault", eventName: nil, authorization: nil)).id
        let actions = script.engine.authorizationCompleted(
            channel: "private-encrypted-vault",
            socketID: "1.1",
            result: .success(.init(auth: "key:sig", sharedSecret: "not-one-byte"))
        )
        #expect(actions.sent.isEmpty)
        #expect(
            actions.contains {
                if case .finishConsumer(id, let error?) = $0 { error.code == .authorizationFailed } else { false }
            })
    }

    @Test("a pusher: event on an encrypted channel is the server's and is not decrypted")
    func protocolEventsStayPlain() throws {
        var (script, id) = try Self.subscribed()
        #expect(
            script.receive(EngineScript.event("pusher:cache_miss", on: "private-encrypted-vault")).deliveries == [
                Delivery(id, "pusher:cache_miss", "{}")
            ])
        // An app event named like the protocol but without its colon is decrypted like any other.
        #expect(
            script.receive(EngineScript.event("pusher-update", on: "private-encrypted-vault", data: "kx")).deliveries
                == [Delivery(id, "pusher-update", "x")])
    }
}
