// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Registration when made, against the fake server over loopback: `trigger` needs no prior wait.
@Suite("Registration when made, with a server", .timeLimit(.minutes(1)))
struct RegistrationServerTests {
    @Test("inside withSubscription the server has the subscription: a trigger needs no wait")
    func triggerInsideScope() async throws {
        try await withHarness { harness in
            try await harness.client.withSubscription(to: "prices") { prices in
                #expect(await harness.server.snapshot.subscribers(of: "prices") == 1)
                await harness.server.trigger(channel: "prices", event: "tick", data: "1")
                var events = prices.makeAsyncIterator()
                let received = try await events.next()
                #expect(received?.data == "1")
            }
            let unsubscribes = await harness.server.waitForMessages(named: "pusher:unsubscribe")
            #expect(unsubscribes.map(\.text) == [#"{"event":"pusher:unsubscribe","data":{"channel":"prices"}}"#])
        }
    }

    @Test("a second consumer of a subscribed channel gets an event triggered right after its iterator is made")
    func triggerAfterIteratorIsMade() async throws {
        try await withHarness { harness in
            try await harness.client.withSubscription(to: "chat") { _ in
                var late = harness.client.events(on: "chat").makeAsyncIterator()
                await harness.server.trigger(channel: "chat", event: "message", data: "hi")
                let received = try await late.next()
                #expect(received?.data == "hi")
            }
        }
    }

    @Test("withUserEvents is registered before signIn: an event sent at once after sign-in arrives")
    func userEventsBeforeSignIn() async throws {
        try await withHarness(
            server: UserTests.server,
            options: { $0.userAuthenticator = UserTests.signing(#"{"id":"alice"}"#) }
        ) { harness in
            try await harness.client.withUserEvents { userEvents in
                try await harness.client.signIn()
                await harness.server.waitForSubscribers(of: "#server-to-user-alice")
                await harness.server.sendToUser("alice", event: "invoice", data: "1")
                var events = userEvents.makeAsyncIterator()
                let received = try await events.next()
                #expect(received?.name == "invoice")
            }
        }
    }
}
