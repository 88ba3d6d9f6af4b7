// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// The machine with a toy cipher: an event opens when its data starts with the key's first byte
/// written as a letter ("a…" opens with key [97]), and "bad…" is malformed.
@Suite("Decryption state machine")
struct DecryptionStateMachineTests {
    static let channel = "private-encrypted-c"

    static func open(_ message: PusherMessage, _ key: [UInt8]) -> DecryptionStateMachine.Opened {
        let data = message.data ?? ""
        if data.hasPrefix("bad") { return .malformed("bad payload") }
        return data.utf8.first == key.first ? .plaintext(String(data.dropFirst())) : .wrongKey
    }

    static func event(_ name: String, _ data: String) -> PusherMessage {
        PusherMessage(event: name, channel: channel, data: data)
    }

    /// Names of delivered events and (reason, event) of reported failures, in order.
    static func summary(_ actions: [DecryptionStateMachine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .deliver(let message, let plaintext): "deliver \(message.event) \(plaintext)"
            case .reload(let channel): "reload \(channel)"
            case .report(let failure): "report \(failure.event) \(failure.reason)"
            }
        }
    }

    @Test("events open with the channel's key; malformed payloads are reported without a reload")
    func openAndMalformed() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        let actions = machine.received(Self.event("e1", "a1"), open: Self.open) + machine.received(Self.event("e2", "bad"), open: Self.open)
        #expect(Self.summary(actions) == ["deliver e1 1", "report e2 malformedPayload"])
    }

    @Test("a wrong key starts one reload; later events wait and keep their order")
    func reloadKeepsOrder() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        var actions = machine.received(Self.event("e1", "b1"), open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
        actions = machine.received(Self.event("e2", "b2"), open: Self.open) + machine.received(Self.event("e3", "bad"), open: Self.open)
        #expect(actions.isEmpty)
        actions = machine.reloadSucceeded(Self.channel, key: [98], open: Self.open)
        #expect(Self.summary(actions) == ["deliver e1 1", "deliver e2 2", "report e3 malformedPayload"])
    }

    @Test("a reloaded key that still fails skips only that event, and does not reload per event")
    func reloadedKeyStillWrong() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "c1"), open: Self.open)
        var actions = machine.received(Self.event("e2", "b2"), open: Self.open)
        actions += machine.reloadSucceeded(Self.channel, key: [98], open: Self.open)
        #expect(Self.summary(actions) == ["report e1 cannotDecrypt", "deliver e2 2"])
        // e2 opened with the reloaded key: a later failure may reload again.
        actions = machine.received(Self.event("e3", "c3"), open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
        actions = machine.reloadSucceeded(Self.channel, key: [98], open: Self.open)
        actions += machine.received(Self.event("e4", "c4"), open: Self.open)
        #expect(Self.summary(actions) == ["report e3 cannotDecrypt", "report e4 cannotDecrypt"])
    }

    @Test("a failed reload reports the event that needed it; the next failure tries again")
    func reloadFailed() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "b1"), open: Self.open)
        _ = machine.received(Self.event("e2", "a2"), open: Self.open)
        var actions = machine.reloadFailed(Self.channel, message: "timeout", open: Self.open)
        #expect(Self.summary(actions) == ["report e1 reloadFailed", "deliver e2 2"])
        actions = machine.received(Self.event("e3", "b3"), open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
    }

    @Test("unsubscribing drops the key and reports held events; late reload answers are ignored")
    func removal() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "b1"), open: Self.open)
        _ = machine.received(Self.event("e2", "b2"), open: Self.open)
        let actions = machine.removeAll()
        #expect(Self.summary(actions) == ["report e1 channelGone", "report e2 channelGone"])
        #expect(machine.reloadSucceeded(Self.channel, key: [98], open: Self.open).isEmpty)
        #expect(Self.summary(machine.received(Self.event("e3", "a3"), open: Self.open)) == ["report e3 cannotDecrypt"])
    }
}
