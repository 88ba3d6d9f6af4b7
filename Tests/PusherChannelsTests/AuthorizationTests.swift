// SPDX-License-Identifier: MIT

import PusherChannelsTesting
import Testing

@testable import PusherChannels

/// Records every authorization request; can hold one back until the test releases it.
actor AuthorizerScript {
    private(set) var requests: [(socketID: String, channel: String)] = []
    private var holds: [Int: WaitableState<Bool>] = [:]
    private var failures: Set<Int> = []
    /// Fired for each request whose task was cancelled while it was held.
    private var cancellations: [Int: WaitableState<Bool>] = [:]
    private var requestWaiters: [(count: Int, signal: WaitableState<Bool>)] = []
    let key: String
    let secret: String
    /// Gives encrypted channels the server's current shared secret.
    let server: FakePusherServer?

    init(key: String, secret: String, server: FakePusherServer? = nil) {
        self.key = key
        self.secret = secret
        self.server = server
    }

    /// Holds request number `index` (1-based) until ``release(_:)``.
    func hold(_ index: Int) { self.holds[index] = WaitableState(false) }
    func release(_ index: Int) { self.holds[index]?.fire() }
    /// Makes request number `index` throw.
    func fail(_ index: Int) { self.failures.insert(index) }

    func waitForRequests(_ count: Int) async {
        guard self.requests.count < count else { return }
        let signal = WaitableState(false)
        self.requestWaiters.append((count, signal))
        await signal.waitUntilFired()
    }

    func authorize(socketID: String, channel: String) async throws -> ChannelAuthorization {
        self.requests.append((socketID, channel))
        let index = self.requests.count
        self.requestWaiters.removeAll { waiter in
            guard waiter.count <= index else { return false }
            waiter.signal.fire()
            return true
        }
        if let hold = self.holds[index] {
            await hold.waitUntilFired()
            if Task.isCancelled { self.cancellation(index).fire() }
            try Task.checkCancellation()
        }
        if self.failures.contains(index) { throw ScriptError.refused }
        var authorization = PusherSignature.channelAuthorization(
            key: self.key, secret: self.secret, socketID: socketID, channel: channel)
        if let server { authorization.sharedSecret = await server.sharedSecret(for: channel) }
        return authorization
    }

    /// Suspends until request number `index` saw its task cancelled while it was held.
    func waitForCancellation(of index: Int) async {
        await self.cancellation(index).waitUntilFired()
    }

    private func cancellation(_ index: Int) -> WaitableState<Bool> {
        if let signal = self.cancellations[index] { return signal }
        let signal = WaitableState(false)
        self.cancellations[index] = signal
        return signal
    }

    enum ScriptError: Error { case refused }

    var authorizer: ChannelAuthorizer {
        ChannelAuthorizer { socketID, channel in try await self.authorize(socketID: socketID, channel: channel) }
    }
}

@Suite("Authorized channels", .timeLimit(.minutes(1)))
struct AuthorizationTests {
    static let secret = "fake-app-secret"

    /// A harness whose server checks signatures and whose client authorizes through `script`.
    func withAuthHarness(_ body: (Harness, AuthorizerScript) async throws -> Void) async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        let script = AuthorizerScript(key: server.appKey, secret: Self.secret)
        let authorizer = await script.authorizer
        try await withHarness(server: server, options: { $0.authorizer = authorizer }) { harness in
            try await body(harness, script)
        }
    }

    @Test("in-process signing subscribes to a private channel the server verifies")
    func signing() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        try await withHarness(
            server: server, options: { $0.authorizer = .signing(key: server.appKey, secret: Self.secret) }
        ) { harness in
            async let events = collect(harness.client.events(on: "private-chat"), count: 1)
            await harness.server.waitForSubscribers(of: "private-chat")
            await harness.server.trigger(channel: "private-chat", event: "message", data: "hi")
            let received = try await events
            #expect(received.map(\.data) == ["hi"])
            let subscribe = try #require(
                await harness.server.snapshot.messages(named: "pusher:subscribe").first?.message)
            let auth = try #require(try subscribe.parsedData()["auth"]?.stringValue)
            #expect(auth.hasPrefix("\(harness.server.appKey):"))
        }
    }

    @Test("a refused signature fails that subscription (pusher:error names it); other channels flow")
    func invalidSignature() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        try await withHarness(
            server: server, options: { $0.authorizer = .signing(key: server.appKey, secret: "wrong") }
        ) { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            async let healthy = collect(harness.client.events(on: "public-feed"), count: 1)
            await #expect {
                for try await _ in harness.client.events(on: "private-chat") {}
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .subscriptionFailed && error?.channel == "private-chat"
                    && error?.message.hasPrefix("Invalid signature") == true
            }
            let reported = await errors.next()
            #expect(reported?.code == .serverError)
            await harness.server.waitForSubscribers(of: "public-feed")
            await harness.server.trigger(channel: "public-feed", event: "tick", data: "1")
            let healthyResult = try await healthy
            #expect(healthyResult.map(\.name) == ["tick"])
        }
    }

    @Test("every (re)subscription is authorized afresh for the current socket id; old auth is never resent")
    func freshAuthorizationAfterReconnect() async throws {
        try await withAuthHarness { harness, script in
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            async let events = collect(harness.client.events(on: "private-chat"), count: 1)
            let first = await signals.next()
            #expect(first == .succeeded(channel: "private-chat", isResubscription: false))
            await harness.server.close(code: 4200, reason: "reconnect")
            let second = await signals.next()
            #expect(
                second
                    == .succeeded(channel: "private-chat", isResubscription: true, missedWindow: second?.missedWindow))
            let requests = await script.requests
            let connections = await harness.server.snapshot.connections
            #expect(requests.map(\.socketID) == connections.map(\.socketID))
            let auths = await harness.server.snapshot.messages(named: "pusher:subscribe").compactMap {
                try? $0.message?.parsedData()["auth"]?.stringValue
            }
            #expect(auths.count == 2 && auths[0] != auths[1])
            await harness.server.trigger(channel: "private-chat", event: "e", data: "")
            _ = try await events
        }
    }

    @Test("an authorization that completes after the socket id changed is discarded")
    func staleAuthorizationDiscarded() async throws {
        try await withAuthHarness { harness, script in
            await script.hold(1)
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            async let events = collect(harness.client.events(on: "private-chat"), count: 1)
            await script.waitForRequests(1)
            await harness.server.close(code: 4200, reason: "reconnect")
            await script.waitForRequests(2)
            let succeeded = await signals.next()
            #expect(succeeded == .succeeded(channel: "private-chat", isResubscription: false))
            // The first answer (for the old socket) arrives now and changes nothing.
            await script.release(1)
            await harness.client.waitForEarliestDeadline(.seconds(120))
            try await LivenessTests.waitUntilClientProcessed(harness)
            let snapshot = await harness.server.snapshot
            #expect(snapshot.messages(named: "pusher:subscribe").count == 1)
            #expect(snapshot.messages(named: "pusher:error").isEmpty)
            #expect(snapshot.connections[1].subscriptions == ["private-chat"])
            await harness.server.trigger(channel: "private-chat", event: "e", data: "")
            _ = try await events
        }
    }

    @Test("leaving while the authorization is in flight sends no subscribe and reports no success")
    func leaveDuringAuthorization() async throws {
        try await withAuthHarness { harness, script in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await script.hold(1)
            let consumer = Task { for try await _ in harness.client.events(on: "private-chat") {} }
            await script.waitForRequests(1)
            consumer.cancel()
            try await consumer.value
            await harness.client.waitForConsumers(on: "private-chat", count: 0)
            await script.release(1)
            // The authorization's timeout leaves the clock only after its result was handled.
            await harness.client.waitForEarliestDeadline(.seconds(120))
            try await LivenessTests.waitUntilClientProcessed(harness)
            #expect(await harness.server.snapshot.messages(named: "pusher:subscribe").isEmpty)
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("a failing authorizer fails that subscription with a typed error; subscribing again retries")
    func authorizerFailure() async throws {
        try await withAuthHarness { harness, script in
            await script.fail(1)
            await #expect {
                for try await _ in harness.client.events(on: "private-chat") {}
            } throws: { error in
                (error as? PusherError)?.code == .authorizationFailed
                    && (error as? PusherError)?.channel == "private-chat"
            }
            async let retry = collect(harness.client.events(on: "private-chat"), count: 1)
            await harness.server.waitForSubscribers(of: "private-chat")
            await harness.server.trigger(channel: "private-chat", event: "back", data: "")
            let retried = try await retry
            #expect(retried.map(\.name) == ["back"])
        }
    }

    @Test("an authorizer that does not answer in time fails the subscription, and its call is cancelled")
    func authorizationTimeout() async throws {
        try await withAuthHarness { harness, script in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await script.hold(1)
            let consumer = Task { try await collect(harness.client.events(on: "private-chat"), count: 1) }
            await script.waitForRequests(1)
            // One task sleeps until the earliest of the client's timers: the authorization's, then the activity timer.
            await harness.clock.waitForDeadlines([.seconds(10)])
            #expect(await harness.client.scheduledTimers.map(\.deadline) == [.seconds(10), .seconds(120)])
            harness.clock.advance(by: .seconds(10))
            await #expect {
                _ = try await consumer.value
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .authorizationFailed && error?.message.contains("did not answer") == true
            }
            // The authorizer's task saw the cancellation (the run is still going: it is not the run's end).
            await script.waitForCancellation(of: 1)
            #expect(await harness.client.state.isConnected)
        }
    }

    @Test("without an authorizer, private and presence channels fail at once", arguments: ["private-a", "presence-b"])
    func noAuthorizer(channel: String) async throws {
        try await withHarness { harness in
            await #expect {
                for try await _ in harness.client.events(on: channel) {}
            } throws: { error in
                (error as? PusherError)?.code == .authorizationRequired
            }
        }
    }
}
