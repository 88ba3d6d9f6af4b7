// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: encrypted channels")
struct ClientEngineEncryptionTests {
    /// Subscribes `private-encrypted-vault` with key "k" (the script's stand-in cipher).
    static func subscribed() throws -> (EngineScript, ConsumerID) {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("private-encrypted-vault", eventName: nil, authorization: nil)).id
        _ = script.engine.authorized(
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
        #expect(
            failed == [
                .reloadKey(channel: "private-encrypted-vault", socketID: "1.1"),
                .scheduleTimer(
                    .keyReload(channel: "private-encrypted-vault", socketID: "1.1"), deadline: script.now + .seconds(10)
                ),
            ])
        let reloaded = script.engine.keyReloaded(
            channel: "private-encrypted-vault", socketID: "1.1", result: .success(.init(auth: "a", sharedSecret: "x")),
            at: script.now)
        #expect(reloaded.deliveries == [Delivery(id, "e", "two"), Delivery(id, "e", "three")])
    }

    @Test("an authorization without a usable shared secret fails the subscription before anything is sent")
    func unusableSecret() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("private-encrypted-vault", eventName: nil, authorization: nil)).id
        let actions = script.engine.authorized(
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

    @Test(
        "in one batch, each opened event reaches every consumer that takes its name, in order, between other channels' events"
    )
    func batchFanOut() throws {
        var (script, id) = try Self.subscribed()
        let named = try script.add(.channel("private-encrypted-vault", eventName: "b", authorization: nil)).id
        let all = try script.add(.all).id
        let plain = try script.add(.channel("plain", eventName: nil, authorization: nil)).id
        _ = script.receive(EngineScript.succeeded("plain"))
        let actions = script.receive(
            EngineScript.event("a", on: "private-encrypted-vault", data: "k1"),
            EngineScript.event("b", on: "private-encrypted-vault", data: "k2"),
            EngineScript.event("p", on: "plain", data: "3"),
            EngineScript.event("b", on: "private-encrypted-vault", data: "k4"),
            EngineScript.event("b", on: "private-encrypted-vault", data: "x5")
        )
        #expect(
            actions.deliveries == [
                Delivery(id, "a", "1"), Delivery(all, "a", "1"), Delivery(id, "b", "2"), Delivery(named, "b", "2"),
                Delivery(all, "b", "2"), Delivery(plain, "p", "3"), Delivery(all, "p", "3"), Delivery(id, "b", "4"),
                Delivery(named, "b", "4"), Delivery(all, "b", "4"),
            ])
        // The last one did not open: its key is reloaded, and it waits.
        #expect(actions.contains(.reloadKey(channel: "private-encrypted-vault", socketID: "1.1")))
    }

    @Test("a pusher: event on an encrypted channel is not decrypted: cache_miss arrives without its data")
    func protocolEventsStayPlain() throws {
        var (script, id) = try Self.subscribed()
        #expect(
            script.receive(EngineScript.event("pusher:cache_miss", on: "private-encrypted-vault")).deliveries == [
                Delivery(id, "pusher:cache_miss", "")
            ])
        // An app event named like the protocol but without its colon is decrypted like any other.
        #expect(
            script.receive(EngineScript.event("pusher-update", on: "private-encrypted-vault", data: "kx")).deliveries
                == [Delivery(id, "pusher-update", "x")])
    }

    @Test("a plain-text pusher: event the client does not handle never reaches consumers of an encrypted channel")
    func forgedProtocolEvent() throws {
        var (script, id) = try Self.subscribed()
        let all = try script.add(.all).id
        let actions = script.receive(
            EngineScript.event("pusher:order-paid", on: "private-encrypted-vault", data: #"{"amount":1000000}"#),
            EngineScript.event("e", on: "private-encrypted-vault", data: "kreal")
        )
        // Only the decrypted event is delivered, to the channel's consumer and the all-channel one.
        #expect(actions.deliveries == [Delivery(id, "e", "real"), Delivery(all, "e", "real")])
        let failures = actions.compactMap {
            if case .reportDecryptionFailure(let failure) = $0 { failure } else { nil }
        }
        #expect(failures.map(\.reason) == [.notEncrypted])
        #expect(failures.map(\.event) == ["pusher:order-paid"])
        #expect(failures.allSatisfy { !$0.message.contains("1000000") })
    }
}
