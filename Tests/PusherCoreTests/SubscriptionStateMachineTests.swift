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
        #expect(machine.connected() == [.subscribe(self.prices)])
    }

    @Test("two consumers share one server subscription; the last one leaving unsubscribes")
    func sharing() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected()
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices))
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(machine.subscriptionSucceeded("prices") == .succeeded("prices", isResubscription: false))
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.consumerRemoved("prices") == .unsubscribe("prices"))
        #expect(machine.consumerRemoved("prices") == nil)
    }

    @Test("subscribe → unsubscribe → subscribe before confirmation settles on one subscription")
    func quickToggle() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected()
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices))
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.consumerAdded(self.prices) == nil)
        #expect(machine.subscriptionSucceeded("prices") == .succeeded("prices", isResubscription: false))
        #expect(machine.isSubscribed("prices"))
    }

    @Test("leaving before confirmation unsubscribes when the confirmation arrives, with no success reported")
    func cancelPending() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected()
        _ = machine.consumerAdded(self.prices)
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.subscriptionSucceeded("prices") == .unsubscribe("prices"))
        #expect(machine.channelNames.isEmpty)
    }

    @Test("unsubscribe is sent only for confirmed or in-flight subscriptions")
    func unsubscribeOnlyWhenSent() {
        var machine = SubscriptionStateMachine()
        _ = machine.consumerAdded(self.prices)
        #expect(machine.consumerRemoved("prices") == nil)
        #expect(machine.connected() == [])
    }

    @Test("after a reconnect every channel is subscribed again, flagged as a resubscription once")
    func resubscription() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected()
        _ = machine.consumerAdded(self.prices)
        _ = machine.subscriptionSucceeded("prices")
        machine.disconnected()
        #expect(!machine.isSubscribed("prices"))
        #expect(machine.connected() == [.subscribe(self.prices)])
        #expect(machine.subscriptionSucceeded("prices") == .succeeded("prices", isResubscription: true))
        #expect(machine.subscriptionSucceeded("prices") == nil)
    }

    @Test("a refused subscription fails its consumers and can be retried")
    func failure() {
        var machine = SubscriptionStateMachine()
        _ = machine.connected()
        _ = machine.consumerAdded(self.prices)
        let error = PusherError(.subscriptionFailed, "no", channel: "prices")
        #expect(machine.subscriptionFailed("prices", error: error) == .failed("prices", error))
        #expect(machine.consumerAdded(self.prices) == .subscribe(self.prices))
    }
}
