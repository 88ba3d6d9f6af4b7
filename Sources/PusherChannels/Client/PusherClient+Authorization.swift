// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension PusherClient {
    /// Asks the authorizer for `channel` on `socketID`, bounded by the authorization timeout on the
    /// injected clock, and hands the answer to the engine.
    ///
    /// - Parameter isKeyReload: Whether this asks again for an encrypted channel's key.
    nonisolated func runAuthorization(channel: String, socketID: String, isKeyReload: Bool = false) async {
        guard let authorizer = self.options.authorizer else { return }
        let start = self.clock.now
        await withSpan(isKeyReload ? "pusher.reload_key" : "pusher.authorize", ofKind: .client) { span in
            span.attributes["pusher.channel"] = channel
            span.attributes["pusher.socket_id"] = socketID
            await self.timed(code: .authorizationFailed, what: "the authorizer", channel: channel) {
                try await authorizer.authorize(socketID, channel, tlsConfiguration: self.options.tlsConfiguration)
            } completion: { result in
                Self.record(result, on: span)
                let duration = self.clock.now - start
                await self.authorized(
                    channel: channel, socketID: socketID, isKeyReload: isKeyReload, result: result, duration: duration)
            }
        }
    }

    private func authorized(
        channel: String, socketID: String, isKeyReload: Bool, result: Result<ChannelAuthorization, PusherError>,
        duration: Duration
    ) {
        self.metrics?.authorization(
            channel: channel, isKeyReload: isKeyReload, succeeded: (try? result.get()) != nil, duration: duration)
        // The engine named the channel in its action: it was validated then.
        let name = ChannelName(unchecked: channel)
        if isKeyReload {
            self.perform(self.engine.keyReloaded(channel: name, socketID: socketID, result: result))
        } else {
            self.perform(self.engine.authorized(channel: name, socketID: socketID, result: result))
        }
    }

    nonisolated func runUserAuthentication(socketID: String) async {
        guard let authenticator = self.options.userAuthenticator else { return }
        let start = self.clock.now
        await withSpan("pusher.sign_in", ofKind: .client) { span in
            span.attributes["pusher.socket_id"] = socketID
            await self.timed(code: .signInFailed, what: "the user authenticator", channel: nil) {
                try await authenticator.authenticate(socketID, tlsConfiguration: self.options.tlsConfiguration)
            } completion: { result in
                Self.record(result, on: span)
                await self.userAuthenticated(socketID: socketID, result: result, duration: self.clock.now - start)
            }
        }
    }

    private func userAuthenticated(
        socketID: String, result: Result<UserAuthentication, PusherError>, duration: Duration
    ) {
        switch result {
        case .success(let authentication):
            self.metrics?.signIn(succeeded: true, duration: duration)
            self.perform(
                self.engine.userAuthenticated(
                    socketID: socketID, auth: authentication.auth, userData: authentication.userData))
        case .failure(let error):
            self.metrics?.signIn(succeeded: false, duration: duration)
            self.perform(self.engine.userAuthenticationFailed(socketID: socketID, error: error))
        }
    }

    private nonisolated static func record<Value>(_ result: Result<Value, PusherError>, on span: any Span) {
        if case .failure(let error) = result { Self.markFailed(span, with: error) }
    }

    /// Runs `body` against the authorization timeout on the injected clock and hands its result (a
    /// thrown error or the timeout as a `PusherError` with `code`) to `completion`, unless the
    /// task is cancelled.
    private nonisolated func timed<Value: Sendable>(
        code: PusherError.Code,
        what: String,
        channel: String?,
        _ body: @escaping @Sendable () async throws -> Value,
        completion: (Result<Value, PusherError>) async -> Void
    ) async {
        let timeout = self.options.authorizationTimeout
        await withTaskGroup(of: Result<Value, PusherError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await body())
                } catch let error as PusherError {
                    return .failure(error)
                } catch {
                    return .failure(PusherError(code, "\(what) failed: \(error)", channel: channel, cause: error))
                }
            }
            group.addTask {
                do {
                    try await self.clock.sleep(for: timeout)
                    return .failure(PusherError(code, "\(what) did not answer within \(timeout)", channel: channel))
                } catch {
                    return nil
                }
            }
            var outcome: Result<Value, PusherError>?
            while outcome == nil, let next = await group.next() { outcome = next }
            // Reported before the timeout is cancelled: once this timer is gone from the clock, its
            // result has been handled.
            if let outcome, !Task.isCancelled { await completion(outcome) }
            group.cancelAll()
        }
    }
}
