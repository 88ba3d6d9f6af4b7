// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore
import Testing

@Suite("Inbound mailbox", .timeLimit(.minutes(1)))
struct InboundMailboxTests {
    @Test("at the limit the reader is told to stop; the client's next take resumes it, once")
    func backpressure() async {
        let mailbox = InboundMailbox(limit: 2)
        let resumed = NIOLockedValueBox(0)
        mailbox.setResumeHandler { resumed.withLockedValue { $0 += 1 } }
        #expect(mailbox.put(contentsOf: [.text("1")], byteCount: 65))
        #expect(!mailbox.put(contentsOf: [.text("2")], byteCount: 65), "two wait: stop reading")
        #expect(resumed.withLockedValue { $0 } == 0)
        #expect(await mailbox.take() == [.text("1"), .text("2")])
        #expect(resumed.withLockedValue { $0 } == 1)
        #expect(mailbox.put(contentsOf: [.text("3")], byteCount: 65))
        #expect(await mailbox.take() == [.text("3")])
        #expect(resumed.withLockedValue { $0 } == 1, "not paused, nothing to resume")
    }

    @Test("at the byte limit the reader is told to stop too, however few messages wait; a take starts afresh")
    func byteBackpressure() async {
        let mailbox = InboundMailbox(limit: 1024, byteLimit: 1000)
        let resumed = NIOLockedValueBox(0)
        mailbox.setResumeHandler { resumed.withLockedValue { $0 += 1 } }
        #expect(mailbox.put(contentsOf: [.text("a")], byteCount: 600))
        #expect(!mailbox.put(contentsOf: [.text("b")], byteCount: 400), "1000 bytes wait: stop reading")
        #expect(await mailbox.take() == [.text("a"), .text("b")])
        #expect(resumed.withLockedValue { $0 } == 1)
        #expect(mailbox.put(contentsOf: [.text("c")], byteCount: 600), "the bytes taken no longer count")
    }

    @Test("the byte budget is 4 MiB, or one message of the largest size when that is more")
    func byteBudget() {
        #expect(InboundMailbox.byteLimit(maximumMessageSize: 1 << 20) == 4 << 20)
        #expect(InboundMailbox.byteLimit(maximumMessageSize: 16 << 20) == 16 << 20)
    }

    @Test("after close the client takes what is left, then nil")
    func closeDrains() async {
        let mailbox = InboundMailbox()
        mailbox.put(contentsOf: [.binary], byteCount: 64)
        mailbox.close()
        #expect(await mailbox.take() == [.binary])
        #expect(await mailbox.take() == nil)
    }
}
