// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// The engine's timers: every deadline is a `scheduleTimer` action, every fire a `timerFired` input.
@Suite("Client engine: timers")
struct ClientEngineTimersTests {
    static let authorization = TimerID.authorization(channel: "private-a", socketID: "1.1")

    @Test("an authorizer that does not answer in time fails the subscription and its call is cancelled")
    func authorizationTimeout() throws {
        var script = EngineScript()
        script.connect()
        script.now = .seconds(3)
        let (id, added) = try script.add(.channel("private-a", eventName: nil, authorization: nil))
        #expect(
            added.starts(with: [
                .authorize(channel: "private-a", socketID: "1.1"),
                .scheduleTimer(Self.authorization, deadline: .seconds(13)),
            ]))
        let fired = script.engine.timerFired(Self.authorization, at: .seconds(13), random: 0)
        guard case .cancelCall(Self.authorization, let reason, _)? = fired.first else {
            Issue.record("expected the call to be cancelled first, got \(fired)")
            return
        }
        #expect(reason.code == .authorizationFailed)
        #expect(reason.message == "the authorizer did not answer within 10.0 seconds")
        #expect(fired.contains(.finishConsumer(id, error: reason)))
        #expect(fired.reported == [.authorizationFailed])
        // The late answer is ignored: nothing is subscribed.
        #expect(
            script.engine.authorized(
                channel: "private-a", socketID: "1.1", result: .success(.init(auth: "key:late"))
            ) == [])
    }

    /// A driver's handle on a call, as the client attaches one.
    final class Handle: Sendable {}

    @Test("the engine's table of calls: the start and the driver's handle, cancelled with it, superseded by a new call")
    func callTable() throws {
        var script = EngineScript()
        script.connect()
        script.now = .seconds(3)
        _ = try script.add(.channel("private-a", eventName: nil, authorization: nil))
        let first = Handle()
        script.engine.attach(first, toCall: Self.authorization)
        #expect(script.engine.start(ofCall: Self.authorization, handle: first) == .seconds(3))
        #expect(
            script.engine.start(ofCall: Self.authorization, handle: Handle()) == nil,
            "another handle's answer is dropped")
        let fired = script.engine.timerFired(Self.authorization, at: .seconds(13), random: 0)
        guard case .cancelCall(Self.authorization, _, let call)? = fired.first else {
            Issue.record("expected the call to be cancelled first, got \(fired)")
            return
        }
        #expect(call.start == .seconds(3))
        #expect(call.handle === first, "the driver gets its handle back to cancel the call")
        #expect(script.engine.start(ofCall: Self.authorization, handle: first) == nil, "a timed-out call is gone")
    }

    @Test("an answer in time cancels the timeout; the timer firing afterwards changes nothing")
    func authorizationInTime() throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("private-a", eventName: nil, authorization: nil))
        let answered = script.engine.authorized(
            channel: "private-a", socketID: "1.1", result: .success(.init(auth: "key:sig")))
        #expect(answered.first == .cancelTimer(Self.authorization))
        #expect(answered.sent.count == 1)
        #expect(script.engine.timerFired(Self.authorization, at: .seconds(10), random: 0) == [])
        // A second answer for the same call is not taken twice.
        #expect(
            script.engine.authorized(
                channel: "private-a", socketID: "1.1", result: .success(.init(auth: "key:sig"))
            ) == [])
    }

    @Test("a user authenticator that does not answer in time fails the sign-in; its late answer is ignored")
    func userAuthenticationTimeout() {
        var script = EngineScript()
        script.connect()
        let timer = TimerID.userAuthentication(socketID: "1.1")
        #expect(
            script.engine.signIn(at: .seconds(1)) == [
                .publishUser(.signingIn), .authenticateUser(socketID: "1.1"),
                .scheduleTimer(timer, deadline: .seconds(11)),
            ])
        let fired = script.engine.timerFired(timer, at: .seconds(11), random: 0)
        guard case .cancelCall(timer, let reason, _)? = fired.first else {
            Issue.record("expected the call to be cancelled first, got \(fired)")
            return
        }
        #expect(reason.code == .signInFailed)
        #expect(fired.contains { if case .publishUser(.failed) = $0 { true } else { false } })
        #expect(script.engine.userAuthenticated(socketID: "1.1", auth: "k:s", userData: #"{"id":"1"}"#) == [])
    }

    @Test("a key reload that does not answer in time reports the held event and lets the next failure reload")
    func keyReloadTimeout() throws {
        var (script, _) = try ClientEngineEncryptionTests.subscribed()
        let timer = TimerID.keyReload(channel: "private-encrypted-vault", socketID: "1.1")
        _ = script.receive(EngineScript.event("e", on: "private-encrypted-vault", data: "xone"))
        script.now = .seconds(10)
        let fired = script.engine.timerFired(timer, at: script.now, random: 0)
        guard case .cancelCall(timer, _, _)? = fired.first,
            case .reportDecryptionFailure(let failure)? = fired.last
        else {
            Issue.record("expected a cancelled call and a failure, got \(fired)")
            return
        }
        #expect(failure.reason == .reloadFailed)
        #expect(failure.message.contains("did not answer"))
        #expect(
            script.engine.keyReloaded(
                channel: "private-encrypted-vault", socketID: "1.1",
                result: .success(.init(auth: "a", sharedSecret: "x")), at: script.now
            ) == [])
        // The interval since the last reload has passed: the next failure reloads again.
        let next = script.receive(EngineScript.event("e", on: "private-encrypted-vault", data: "xtwo"))
        #expect(next.contains(.scheduleTimer(timer, deadline: .seconds(20))))
        #expect(next.deliveries.isEmpty)
    }

    @Test("the client-event pacing timer is cancelled when the connection is lost; firing late sends nothing")
    func clientEventTimerCancelledOnDisconnect() throws {
        var script = EngineScript(clientEventRateLimit: 1)
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        _ = script.engine.authorized(
            channel: "private-chat", socketID: "1.1", result: .success(.init(auth: "key:sig")))
        _ = script.receive(EngineScript.succeeded("private-chat"))
        #expect(try script.engine.trigger("client-n", on: "private-chat", data: "1", at: script.now).sent.count == 1)
        let paced = try script.engine.trigger("client-n", on: "private-chat", data: "2", at: script.now)
        #expect(paced == [.scheduleTimer(.clientEvents, deadline: script.now + .seconds(1))])
        let disconnected = script.engine.disconnect(at: script.now)
        #expect(disconnected.contains(.cancelTimer(.clientEvents)))
        #expect(script.engine.timerFired(.clientEvents, at: script.now + .seconds(1), random: 0).sent.isEmpty)
        // After the reconnect and the new subscription, the waiting event goes out.
        script.now += .seconds(2)
        script.connect(socketID: "2.2")
        _ = script.engine.authorized(
            channel: "private-chat", socketID: "2.2", result: .success(.init(auth: "key:sig")))
        let resubscribed = script.receive(EngineScript.succeeded("private-chat"))
        #expect(resubscribed.sent == [#"{"event":"client-n","channel":"private-chat","data":"2"}"#])
    }

    @Test("the connection's timers go through the engine: a cancelled reconnect timer changes nothing")
    func reconnectTimer() {
        var script = EngineScript()
        script.connect()
        let closed = script.engine.transportClosed(
            generation: script.generation, closeCode: 4100, reason: nil, at: script.now, random: 0)
        #expect(closed.last == .scheduleTimer(.reconnect(2), deadline: script.now + .seconds(1)))
        #expect(
            script.engine.disconnect(at: script.now) == [.cancelTimer(.reconnect(2)), .publishState(.disconnected)])
        #expect(script.engine.timerFired(.reconnect(2), at: script.now + .seconds(1), random: 0) == [])
        #expect(script.engine.state == .disconnected)
    }
}
