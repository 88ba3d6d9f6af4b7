// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// Every received message is an `InboundMessage` in a batch and every delivered event a
/// `ClientEngine.Action`: copying them is on the per-event path, so they stay a few words.
@Suite("Hot-path value sizes")
struct HotPathLayoutTests {
    @Test("an inbound message is one word: the rare error is boxed")
    func inboundMessage() {
        #expect(MemoryLayout<InboundMessage>.size == MemoryLayout<Int>.size)
        let error = PusherError(.malformedMessage, "no event name", closeCode: 4000, channel: "c")
        #expect(InboundMessage.malformed(error) == .malformed(error))
        guard case .malformed(let boxed) = InboundMessage.malformed(error) else {
            Issue.record("not malformed")
            return
        }
        #expect(boxed.closeCode == 4000)
        #expect(boxed.channel == "c")
    }

    @Test("an engine action takes 32 bytes at most: large payloads are boxed")
    func action() {
        #expect(MemoryLayout<ClientEngine.Action>.size <= 32)
        let failure = ClientEngine.Action.report(PusherError(.serverError, "over quota", closeCode: 4004))
        #expect(failure == .report(PusherError(.serverError, "over quota", closeCode: 4004)))
        #expect(failure != .report(PusherError(.serverError, "over quota", closeCode: 4005)))
    }
}
