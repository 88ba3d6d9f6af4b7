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
        #expect(mailbox.put(contentsOf: [.text("1")]))
        #expect(!mailbox.put(contentsOf: [.text("2")]), "two wait: stop reading")
        #expect(resumed.withLockedValue { $0 } == 0)
        #expect(await mailbox.take() == [.text("1"), .text("2")])
        #expect(resumed.withLockedValue { $0 } == 1)
        #expect(mailbox.put(contentsOf: [.text("3")]))
        #expect(await mailbox.take() == [.text("3")])
        #expect(resumed.withLockedValue { $0 } == 1, "not paused, nothing to resume")
    }

    @Test("after close the client takes what is left, then nil")
    func closeDrains() async {
        let mailbox = InboundMailbox()
        mailbox.put(contentsOf: [.binary])
        mailbox.close()
        #expect(await mailbox.take() == [.binary])
        #expect(await mailbox.take() == nil)
    }
}
