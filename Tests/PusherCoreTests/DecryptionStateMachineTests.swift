// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// The machine with a toy cipher: an event opens when its data starts with the key's first byte
/// written as a letter ("a…" opens with key [97]), and "bad…" is malformed.
@Suite("Decryption state machine")
struct DecryptionStateMachineTests {
    static let channel: ChannelName = "private-encrypted-c"

    static func open(_ message: PusherMessage, _ key: [UInt8]) -> DecryptionStateMachine.Opened {
        let data = message.data ?? ""
        if data.hasPrefix("bad") { return .malformed("bad payload") }
        return data.utf8.first == key.first ? .plaintext(String(data.dropFirst())) : .wrongKey
    }

    static func event(_ name: String, _ data: String) -> PusherMessage {
        PusherMessage(event: name, channel: channel.rawValue, data: data)
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
        let actions =
            machine.received(Self.event("e1", "a1"), at: .zero, open: Self.open)
            + machine.received(Self.event("e2", "bad"), at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["deliver e1 1", "report e2 malformedPayload"])
    }

    @Test("a wrong key starts one reload; later events wait and keep their order")
    func reloadKeepsOrder() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        var actions = machine.received(Self.event("e1", "b1"), at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
        actions =
            machine.received(Self.event("e2", "b2"), at: .zero, open: Self.open)
            + machine.received(Self.event("e3", "bad"), at: .zero, open: Self.open)
        #expect(actions.isEmpty)
        actions = machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["deliver e1 1", "deliver e2 2", "report e3 malformedPayload"])
    }

    @Test("a reloaded key that still fails skips only that event, and does not reload per event")
    func reloadedKeyStillWrong() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "c1"), at: .zero, open: Self.open)
        var actions = machine.received(Self.event("e2", "b2"), at: .zero, open: Self.open)
        actions += machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["report e1 cannotDecrypt", "deliver e2 2"])
        // e2 opened with the reloaded key: a later failure may reload again, once the interval passed.
        actions = machine.received(Self.event("e3", "c3"), at: .seconds(10), open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
        actions = machine.reloadSucceeded(Self.channel, key: [98], at: .seconds(10), open: Self.open)
        actions += machine.received(Self.event("e4", "c4"), at: .seconds(10), open: Self.open)
        #expect(Self.summary(actions) == ["report e3 cannotDecrypt", "report e4 cannotDecrypt"])
    }

    @Test("a failed reload reports the event that needed it; the next failure after the interval tries again")
    func reloadFailed() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "b1"), at: .zero, open: Self.open)
        _ = machine.received(Self.event("e2", "a2"), at: .zero, open: Self.open)
        var actions = machine.reloadFailed(Self.channel, message: "timeout", at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["report e1 reloadFailed", "deliver e2 2"])
        actions = machine.received(Self.event("e3", "b3"), at: .seconds(9), open: Self.open)
        #expect(Self.summary(actions) == ["report e3 cannotDecrypt"])
        actions = machine.received(Self.event("e4", "b4"), at: .seconds(10), open: Self.open)
        #expect(Self.summary(actions) == ["reload \(Self.channel)"])
    }

    @Test("unsubscribing drops the key and reports held events; late reload answers are ignored")
    func removal() {
        var machine = DecryptionStateMachine()
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("e1", "b1"), at: .zero, open: Self.open)
        _ = machine.received(Self.event("e2", "b2"), at: .zero, open: Self.open)
        let actions = machine.removeAll()
        #expect(Self.summary(actions) == ["report e1 channelGone", "report e2 channelGone"])
        #expect(machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open).isEmpty)
        #expect(
            Self.summary(machine.received(Self.event("e3", "a3"), at: .zero, open: Self.open)) == [
                "report e3 cannotDecrypt"
            ])
    }

    @Test("forged events interleaved with valid ones start at most one reload per interval")
    func forgedInterleaved() {
        var machine = DecryptionStateMachine(reloadInterval: .seconds(10))
        _ = machine.subscribed(Self.channel, key: [97])
        var reloads = 0
        var reported = 0
        var delivered = 0
        // 100 rounds in 20 s: a forged event (wrong key), answered by the same key, then a valid one.
        for round in 0..<100 {
            let now = Duration.milliseconds(200 * round)
            var actions = machine.received(Self.event("forged", "x\(round)"), at: now, open: Self.open)
            if actions.contains(.reload(channel: Self.channel)) {
                reloads += 1
                actions += machine.reloadSucceeded(Self.channel, key: [97], at: now, open: Self.open)
            }
            actions += machine.received(Self.event("valid", "a\(round)"), at: now, open: Self.open)
            for action in actions {
                if case .report = action { reported += 1 }
                if case .deliver = action { delivered += 1 }
            }
        }
        #expect(reloads == 2)
        #expect(reported == 100)
        #expect(delivered == 100)
    }

    @Test("events held during a reload are bounded; the rest are reported as heldEventsLimit")
    func heldLimit() {
        var machine = DecryptionStateMachine(maximumHeld: 3)
        _ = machine.subscribed(Self.channel, key: [97])
        var actions: [DecryptionStateMachine.Action] = []
        for index in 1...5 {
            actions += machine.received(Self.event("e\(index)", "b\(index)"), at: .zero, open: Self.open)
        }
        #expect(
            Self.summary(actions) == [
                "reload \(Self.channel)", "report e4 heldEventsLimit", "report e5 heldEventsLimit",
            ])
        actions = machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open)
        #expect(Self.summary(actions) == ["deliver e1 1", "deliver e2 2", "deliver e3 3"])
    }

    @Test("holding 200 000 events during a reload is linear (a copy per append would take minutes)")
    func floodWhileReloading() {
        var machine = DecryptionStateMachine(maximumHeld: 200_000, maximumHeldBytes: 1 << 40)
        _ = machine.subscribed(Self.channel, key: [97])
        _ = machine.received(Self.event("first", "b0"), at: .zero, open: Self.open)
        for index in 1..<200_000 { _ = machine.received(Self.event("e", "b\(index)"), at: .zero, open: Self.open) }
        let actions = machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open)
        #expect(actions.count == 200_000)
    }

    @Test("events held during a reload are bounded by bytes too")
    func heldByteLimit() {
        let large = "b" + String(repeating: "x", count: 2_000)
        let size = DecryptionStateMachine.heldByteCount(of: Self.event("e1", large))
        var machine = DecryptionStateMachine(maximumHeld: 100, maximumHeldBytes: 2 * size)
        _ = machine.subscribed(Self.channel, key: [97])
        var actions: [DecryptionStateMachine.Action] = []
        for index in 1...4 {
            actions += machine.received(Self.event("e\(index)", large), at: .zero, open: Self.open)
        }
        #expect(
            Self.summary(actions) == [
                "reload \(Self.channel)", "report e3 heldEventsLimit", "report e4 heldEventsLimit",
            ])
        actions = machine.reloadSucceeded(Self.channel, key: [98], at: .zero, open: Self.open)
        #expect(Self.summary(actions).count == 2)
        // The room is free again after the reload.
        #expect(
            Self.summary(machine.received(Self.event("e5", "b5"), at: .zero, open: Self.open)) == ["deliver e5 5"])
    }
}
