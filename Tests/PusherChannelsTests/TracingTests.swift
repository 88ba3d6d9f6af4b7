// SPDX-License-Identifier: MIT

import InMemoryTracing
import PusherChannels
import PusherChannelsTesting
import Testing
import Tracing

/// Spans as a tracing backend sees them: swift-distributed-tracing's `InMemoryTracer`, bound to the
/// client's task with `withTracer` (no global bootstrap, so the tests run in parallel).
@Suite("Tracing", .timeLimit(.minutes(1)))
struct TracingTests {
    static let secret = "tracing-app-secret"

    static func spans(_ tracer: InMemoryTracer, named name: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.operationName == name }
    }

    /// Subscribes `channel` through the fake server's HTTP auth endpoint and waits for the outcome.
    static func subscribeOverHTTP(
        _ channel: String, tracer: InMemoryTracer, configure: (FakePusherServer) async -> Void = { _ in }
    ) async throws -> (requests: [FakePusherServer.AuthRequest], outcome: SubscriptionEvent?) {
        try await withTracer(tracer) {
            try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
                await configure(server)
                var options = server.clientConfiguration()
                options.authorizer = .endpoint(server.authEndpoint)
                let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
                let outcome = try await withRunningClient(client) { client in
                    var outcomes = client.subscriptionEvents(on: channel).makeAsyncIterator()
                    let consumer = Task { try await collect(client.events(on: channel), count: 1) }
                    defer { consumer.cancel() }
                    return await outcomes.next()
                }
                return (await server.snapshot.authRequests, outcome)
            }
        }
    }

    @Test("an HTTP authorization has a span, and the auth endpoint receives its trace context in headers")
    func authorizationOverHTTP() async throws {
        let tracer = InMemoryTracer()
        let (requests, outcome) = try await Self.subscribeOverHTTP("private-traced", tracer: tracer)
        guard case .succeeded? = outcome else {
            Issue.record("expected a subscription, got \(String(describing: outcome))")
            return
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let authorize = Self.spans(tracer, named: "pusher.authorize")
        try #require(authorize.count == 1)
        #expect(authorize[0].attributes["pusher.channel"]?.toSpanAttribute() == "private-traced")
        #expect(authorize[0].kind == .client)
        #expect(authorize[0].status == nil, "a successful request leaves the status unset")
        try #require(requests.count == 1)
        #expect(requests[0].headers[InMemoryTracer.traceIDKey] == authorize[0].traceID)
        #expect(requests[0].headers[InMemoryTracer.spanIDKey] == authorize[0].spanID)
        // The connection attempt has its own span, ended once connected, with the socket id.
        let connect = Self.spans(tracer, named: "pusher.connect")
        try #require(connect.count == 1)
        #expect(connect[0].attributes["pusher.socket_id"] != nil)
        #expect(connect[0].status == nil)
    }

    @Test("a refused authorization marks its span failed, with the HTTP status")
    func refusedAuthorization() async throws {
        let tracer = InMemoryTracer()
        let (requests, outcome) = try await Self.subscribeOverHTTP("private-refused", tracer: tracer) { server in
            await server.setAuthEndpoint(.respond(status: 403, body: "forbidden"))
        }
        guard case .failed? = outcome else {
            Issue.record("expected a refusal, got \(String(describing: outcome))")
            return
        }
        #expect(requests.count == 1)
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let authorize = Self.spans(tracer, named: "pusher.authorize")
        try #require(authorize.count == 1)
        #expect(authorize[0].status?.code == .error)
        #expect(authorize[0].errors.count == 1)
        #expect(
            authorize[0].errors.first.map { "\($0.error)" }
                == "authorizationFailed: authorizationFailed [channel private-refused] (HTTP 403)",
            "the code and status only: no response body, URL or cause")
        #expect(authorize[0].attributes["http.response.status_code"]?.toSpanAttribute() == 403)
    }

    @Test("each connection attempt has a span: a handshake timeout fails it, the next attempt succeeds")
    func connectionAttempts() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await withInMemoryClient { harness in
                var states = harness.client.connectionStates.makeAsyncIterator()
                // The first socket opens but the server never says connection_established.
                _ = await harness.transport.nextConnection()
                await harness.clock.waitForSleepers()
                harness.clock.advance(by: .seconds(10))
                guard case .reconnecting(_, let delay, _)? = await states.collect(until: \.isReconnecting).last else {
                    return
                }
                await harness.clock.waitForSleepers()
                harness.clock.advance(by: delay)
                _ = await harness.established(socketID: "2.2")
                _ = await states.connectedSocketID()
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let attempts = Self.spans(tracer, named: "pusher.connect")
        try #require(attempts.count == 2)
        #expect(attempts[0].status?.code == .error)
        #expect(attempts[0].status?.message == "handshakeTimeout")
        #expect(attempts[0].attributes["pusher.attempt"]?.toSpanAttribute() == 0)
        #expect(attempts[1].attributes["pusher.attempt"]?.toSpanAttribute() == 1)
        #expect(attempts[1].status == nil)
        #expect(attempts[1].attributes["pusher.socket_id"]?.toSpanAttribute() == "2.2")
        #expect(attempts[1].attributes["server.address"]?.toSpanAttribute() == "pusher.invalid")
    }

    @Test(
        "connection spans are children of the span run() starts in, not of connect()'s caller; giving up marks them cancelled"
    )
    func parentAndCancelledAttempt() async throws {
        let tracer = InMemoryTracer()
        let parent = try await withTracer(tracer) {
            try await withSpan("application") { span in
                try await withInMemoryClient(configuration: { $0.connectsAutomatically = false }) { harness in
                    // connect() is called under another span: the attempt still belongs to the run's.
                    await withSpan("caller") { _ in await harness.client.connect() }
                    // The socket opens; the server never answers before disconnect().
                    _ = await harness.transport.nextConnection()
                    await harness.client.disconnect()
                }
                return span.context.inMemorySpanContext
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let attempts = Self.spans(tracer, named: "pusher.connect")
        try #require(attempts.count == 1)
        let context = try #require(parent)
        #expect(attempts[0].traceID == context.traceID)
        #expect(attempts[0].parentSpanID == context.spanID)
        #expect(attempts[0].attributes["pusher.cancelled"]?.toSpanAttribute() == true)
        #expect(attempts[0].status == nil, "giving up is not a failure")
    }

    @Test("an attempt given up before its task ran has a span marked cancelled, never a successful-looking one")
    func attemptGivenUpAtOnce() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await withInMemoryClient(configuration: { $0.connectsAutomatically = false }) { harness in
                await harness.client.connect()
                await harness.client.disconnect()
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let attempts = Self.spans(tracer, named: "pusher.connect")
        try #require(attempts.count == 1)
        #expect(attempts[0].attributes["pusher.cancelled"]?.toSpanAttribute() == true)
        #expect(attempts[0].attributes["pusher.generation"] != nil)
        #expect(attempts[0].status == nil)
    }

    @Test("an attempt's span names the endpoint it was opened to, even when the client switched before its task ran")
    func attemptSpanNamesItsEndpoint() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await withInMemoryClient(configuration: { $0.connectsAutomatically = false }) { harness in
                var states = harness.client.connectionStates.makeAsyncIterator()
                try await Self.connectThenSwitch(harness.client, to: PusherEndpoint(host: "other.invalid"))
                // The first attempt may or may not have reached the transport before it was dropped.
                var peer = await harness.transport.nextConnection()
                if !peer.url.contains("other.invalid") { peer = await harness.transport.nextConnection() }
                peer.establish(socketID: "2.2")
                _ = await states.connectedSocketID()
            }
        }
        let attempts = Self.spans(tracer, named: "pusher.connect")
        try #require(attempts.count == 2)
        let given = try #require(attempts.first { $0.attributes["pusher.cancelled"]?.toSpanAttribute() == true })
        let connected = try #require(attempts.first { $0.attributes["pusher.socket_id"]?.toSpanAttribute() == "2.2" })
        #expect(given.attributes["server.address"]?.toSpanAttribute() == "pusher.invalid")
        #expect(connected.attributes["server.address"]?.toSpanAttribute() == "other.invalid")
    }

    /// Connects, then switches endpoint, in one turn of the client: the first attempt's task cannot
    /// annotate its span before the second attempt is opened.
    static func connectThenSwitch(_ client: isolated PusherClient, to endpoint: PusherEndpoint) throws {
        client.connect()
        try client.switchEndpoint(to: endpoint)
    }

    @Test("an encrypted channel's key reload has a span of its own, beside the subscription's")
    func keyReload() async throws {
        let tracer = InMemoryTracer()
        let channel = "private-encrypted-orders"
        try await withTracer(tracer) {
            try await withInMemoryClient(configuration: { options in
                options.authorizer = ChannelAuthorizer { _, _ in
                    ChannelAuthorization(
                        auth: "key:signature", sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
                }
            }) { harness in
                var failures = harness.client.decryptionFailures(on: channel).makeAsyncIterator()
                let consumer = Task { try await collect(harness.client.events(on: channel), count: 1) }
                defer { consumer.cancel() }
                let peer = await harness.established()
                _ = await peer.nextMessage(named: "pusher:subscribe")
                peer.send(#"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#)
                // Well formed, but it does not open with the key: the client reloads the key once.
                let forged =
                    #"{\"nonce\":\"\#(String(repeating: "A", count: 32))\",\"ciphertext\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}"#
                peer.send(#"{"event":"order","channel":"\#(channel)","data":"\#(forged)"}"#)
                _ = await failures.next()
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        #expect(Self.spans(tracer, named: "pusher.authorize").count == 1)
        let reloads = Self.spans(tracer, named: "pusher.reload_key")
        try #require(reloads.count == 1)
        #expect(reloads[0].attributes["pusher.channel"]?.toSpanAttribute() == .string(channel))
        #expect(reloads[0].attributes["pusher.socket_id"]?.toSpanAttribute() == "1.1")
        #expect(reloads[0].status == nil, "the reload itself succeeded")
    }

    @Test("sign-in has a span; a failing authenticator marks it failed")
    func signIn() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await withInMemoryClient(configuration: { options in
                options.userAuthenticator = UserAuthenticator { _ in
                    throw PusherError(.signInFailed, "no user")
                }
            }) { harness in
                var users = harness.client.userStates.makeAsyncIterator()
                _ = await harness.established()
                try await harness.client.signIn()
                while let state = await users.next() {
                    if case .failed = state { break }
                }
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let signIns = Self.spans(tracer, named: "pusher.sign_in")
        try #require(signIns.count == 1)
        #expect(signIns[0].attributes["pusher.socket_id"]?.toSpanAttribute() == "1.1")
        #expect(signIns[0].status?.code == .error)
    }

    @Test("a sign-in through the user-auth endpoint sends the sign-in span's trace context")
    func signInOverHTTP() async throws {
        let tracer = InMemoryTracer()
        let requests = try await withTracer(tracer) {
            try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
                var options = server.clientConfiguration()
                options.userAuthenticator = .endpoint(server.userAuthEndpoint)
                try await withRunningClient(server.inMemoryClient(configuration: options, clock: VirtualClock())) {
                    client in
                    var states = client.userStates.makeAsyncIterator()
                    try await client.signIn()
                    while let state = await states.next(), state.user == nil {}
                }
                return await server.snapshot.authRequests
            }
        }
        #expect(tracer.activeSpans.isEmpty, "every span ended")
        let signIns = Self.spans(tracer, named: "pusher.sign_in")
        try #require(signIns.count == 1)
        #expect(signIns[0].status == nil)
        try #require(requests.count == 1)
        #expect(requests[0].headers[InMemoryTracer.traceIDKey] == signIns[0].traceID)
        #expect(requests[0].headers[InMemoryTracer.spanIDKey] == signIns[0].spanID)
    }

    @Test("in-process signing is no authorizer call: private and encrypted channels make no span, presence ones do")
    func signingMakesNoCall() async throws {
        let tracer = InMemoryTracer()
        let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        let server = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: masterKey)
        try await withTracer(tracer) {
            try await withHarness(
                server: server,
                options: {
                    $0.authorizer = .signing(key: server.appKey, secret: Self.secret, masterKey: masterKey) { _ in
                        PresenceMember(userID: "u1")
                    }
                }
            ) { harness in
                let channels = ["private-a", "private-encrypted-b", "presence-c"]
                let consumers = channels.map { channel in
                    Task { try await collect(harness.client.events(on: channel), count: 1) }
                }
                defer { for consumer in consumers { consumer.cancel() } }
                for channel in channels { await harness.server.waitForSubscribers(of: channel) }
            }
        }
        let authorize = Self.spans(tracer, named: "pusher.authorize")
        #expect(authorize.map { $0.attributes["pusher.channel"]?.toSpanAttribute() } == [.string("presence-c")])
    }

    @Test("with in-process signing, an encrypted channel's key reload is no call either")
    func signingReloadsWithoutCall() async throws {
        let tracer = InMemoryTracer()
        let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        try await withTracer(tracer) {
            try await withInMemoryClient(configuration: {
                $0.authorizer = .signing(key: "key", secret: Self.secret, masterKey: masterKey)
            }) { harness in
                let channel = "private-encrypted-orders"
                var failures = harness.client.decryptionFailures(on: channel).makeAsyncIterator()
                let consumer = Task { try await collect(harness.client.events(on: channel), count: 1) }
                defer { consumer.cancel() }
                let peer = await harness.established()
                _ = await peer.nextMessage(named: "pusher:subscribe")
                peer.send(#"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#)
                // Well formed, but sealed with another key: the reload gives the same key, so it is
                // reported as not opening after a reload.
                let nonce = String(repeating: "A", count: 32)
                let forged = #"{\"nonce\":\"\#(nonce)\",\"ciphertext\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}"#
                peer.send(#"{"event":"order","channel":"\#(channel)","data":"\#(forged)"}"#)
                let failure = await failures.next()
                #expect(failure?.reason == .cannotDecrypt)
                #expect(failure?.message.contains("a reload did not help") == true)
            }
        }
        #expect(Self.spans(tracer, named: "pusher.reload_key").isEmpty)
        #expect(Self.spans(tracer, named: "pusher.authorize").isEmpty)
    }
}
