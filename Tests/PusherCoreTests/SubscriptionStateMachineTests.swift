// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Subscription state machine")
struct SubscriptionStateMachineTests {
    let prices = try! ChannelName(validating: "prices")  // a valid literal

    @Test("subscribing while disconnected sends exactly one subscribe on connect")
    func beforeConnect() {
        var machine = SubscriptionStateMachine()
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(machine.connected(socketID: "1.1") == [.subscribe(self.prices, auth: nil, channelData: nil)])
    }

    @Test("two consumers share one server subscription; the last one leaving unsubscribes")
    func sharing() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices, auth: nil, channelData: nil))
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(
            machine.subscriptionSucceeded("prices", at: .zero)
                == .succeeded("prices", isResubscription: false, missedWindow: nil))
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.consumerRemoved("prices") == .unsubscribe("prices"))
        #expect(machine.consumerRemoved("prices") == nil)
    }

    @Test("subscribe → unsubscribe → subscribe before confirmation settles on one subscription")
    func quickToggle() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices, auth: nil, channelData: nil))
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(
            machine.subscriptionSucceeded("prices", at: .zero)
                == .succeeded("prices", isResubscription: false, missedWindow: nil))
        #expect(machine.isSubscribed("prices"))
    }

    @Test("leaving before confirmation unsubscribes when the confirmation arrives, with no success reported")
    func cancelPending() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.prices)
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.subscriptionSucceeded("prices", at: .zero) == .unsubscribe("prices"))
        #expect(machine.channelNames.isEmpty)
    }

    @Test("unsubscribe is sent only for confirmed or in-flight subscriptions")
    func unsubscribeOnlyWhenSent() {
        var machine = SubscriptionStateMachine()
        _ = machine.consumerAdded(self.prices)
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.connected(socketID: "1.1") == [])
    }

    @Test("after a reconnect every channel is subscribed again, flagged as a resubscription once")
    func resubscription() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.prices)
        _ = machine.subscriptionSucceeded("prices", at: .seconds(1))
        machine.disconnected(lastKnownAlive: .seconds(40))
        #expect(!machine.isSubscribed("prices"))
        #expect(machine.connected(socketID: "1.1") == [.subscribe(self.prices, auth: nil, channelData: nil)])
        let window = MissedWindow(lastKnownSubscribed: .seconds(40), subscribedAgain: .seconds(52))
        #expect(
            machine.subscriptionSucceeded("prices", at: .seconds(52))
                == .succeeded("prices", isResubscription: true, missedWindow: window))
        #expect(machine.subscriptionSucceeded("prices", at: .seconds(53)) == nil)
    }

    @Test("a refused subscription fails its consumers and can be retried")
    func failure() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.prices)
        let error = PusherError(.subscriptionFailed, "no", channel: "prices")
        #expect(
            machine.subscriptionFailed("prices", error: error, at: .zero) == [
                .unsubscribe("prices"), .failed("prices", error),
            ])
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices, auth: nil, channelData: nil))
    }

    let chat = try! ChannelName(validating: "private-chat")  // a valid literal

    @Test("private channels are authorized for the current socket id, then subscribed with the result")
    func authorizes() {
        var machine = SubscriptionStateMachine()
        #expect(machine.consumerAdded(self.chat) == nil)
        #expect(machine.connected(socketID: "1.1") == [.authorize(self.chat, socketID: "1.1")])
        #expect(
            machine.authorizationSucceeded("private-chat", socketID: "1.1", authorization: "k:s", channelData: nil)
                == .subscribe(self.chat, auth: "k:s", channelData: nil))
        #expect(
            machine.subscriptionSucceeded("private-chat", at: .zero)
                == .succeeded("private-chat", isResubscription: false, missedWindow: nil))
    }

    @Test("every resubscription is authorized afresh for the new socket id")
    func freshAuthorizationPerSocket() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.chat)
        _ = machine.authorizationSucceeded("private-chat", socketID: "1.1", authorization: "k:old", channelData: nil)
        _ = machine.subscriptionSucceeded("private-chat", at: .zero)
        machine.disconnected(lastKnownAlive: .zero)
        #expect(machine.connected(socketID: "2.2") == [.authorize(self.chat, socketID: "2.2")])
    }

    @Test("a result for an old socket id is discarded; the current request decides")
    func staleAuthorization() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        #expect(machine.consumerAdded(self.chat) == .authorize(self.chat, socketID: "1.1"))
        machine.disconnected(lastKnownAlive: .zero)
        #expect(machine.connected(socketID: "2.2") == [.authorize(self.chat, socketID: "2.2")])
        #expect(
            machine.authorizationSucceeded("private-chat", socketID: "1.1", authorization: "k:old", channelData: nil)
                == nil)
        #expect(
            machine.authorizationFailed(
                "private-chat", socketID: "1.1", error: PusherError(.authorizationFailed, "late"), at: .zero) == nil)
        #expect(
            machine.authorizationSucceeded("private-chat", socketID: "2.2", authorization: "k:new", channelData: nil)
                == .subscribe(self.chat, auth: "k:new", channelData: nil))
    }

    @Test("leaving while the authorization is in flight sends no subscribe and reports nothing")
    func leaveDuringAuthorization() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.chat)
        #expect(machine.consumerRemoved("private-chat") == nil)
        #expect(
            machine.authorizationSucceeded("private-chat", socketID: "1.1", authorization: "k:s", channelData: nil)
                == nil)
        #expect(machine.channelNames.isEmpty)
        // Coming back while in flight keeps the one request.
        _ = machine.consumerAdded(self.chat)
        #expect(machine.consumerRemoved("private-chat") == nil)
        #expect(machine.consumerAdded(self.chat) == nil)
        #expect(
            machine.authorizationSucceeded("private-chat", socketID: "1.1", authorization: "k:s", channelData: nil)
                == .subscribe(self.chat, auth: "k:s", channelData: nil))
    }

    @Test("a failed authorization fails the consumers; subscribing again retries")
    func failedAuthorization() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected(socketID: "1.1")
        _ = machine.consumerAdded(self.chat)
        let error = PusherError(.authorizationFailed, "401", channel: "private-chat")
        #expect(
            machine.authorizationFailed("private-chat", socketID: "1.1", error: error, at: .zero)
                == .failed("private-chat", error)
        )
        #expect(machine.consumerAdded(self.chat) == .authorize(self.chat, socketID: "1.1"))
    }
}
