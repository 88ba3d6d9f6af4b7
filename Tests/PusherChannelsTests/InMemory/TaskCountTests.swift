// SPDX-License-Identifier: MIT

import PusherChannelsTesting
import PusherCore
import Testing

@testable import PusherChannels

/// What a subscribe costs in tasks: the client starts child tasks of `run()` only where they are
/// needed, and its timers re-arm only when the earliest deadline moves earlier.
@Suite("Tasks a subscribe starts", .timeLimit(.minutes(1)))
struct TaskCountTests {
    static let secret = "fake-app-secret"

    @Test("a private subscribe starts at most 2 tasks: the authorizer's call and one re-armed timer")
    func privateSubscribe() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        let key = server.appKey
        // An authorizer the client must call (a signing one answers in place, without a task).
        let authorizer = ChannelAuthorizer { socketID, channel in
            PusherSignature.channelAuthorization(key: key, secret: Self.secret, socketID: socketID, channel: channel)
        }
        try await withHarness(server: server, options: { $0.authorizer = authorizer }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            // Later than the handshake timeout: the timer task sleeps until the activity timeout.
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: .seconds(20))
            await harness.clock.waitForDeadlines([.seconds(120)])
            let before = await harness.client.childTasksStarted
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            async let events = collect(harness.client.events(on: "private-chat"), count: 1)
            guard case .succeeded? = await signals.next() else {
                Issue.record("the subscription did not succeed")
                return
            }
            await harness.server.trigger(channel: "private-chat", event: "message", data: "hi")
            let received = try await events
            #expect(received.map(\.data) == ["hi"])
            // The timer task has settled on its next deadline.
            await harness.clock.waitForSleepers()
            let started = await harness.client.childTasksStarted - before
            #expect(started <= 2, "a private subscribe started \(started) tasks")
        }
    }
}
