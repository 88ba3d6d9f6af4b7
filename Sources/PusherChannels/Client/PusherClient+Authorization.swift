// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension PusherClient {
    /// What became of an authorizer or user-authenticator call.
    private enum CallOutcome<Value: Sendable>: Sendable {
        case answered(Result<Value, PusherError>)
        /// The engine gave up on it (with its reason), or the run ended (nil).
        case cancelled(PusherError?)
    }

    /// Asks the authorizer for `channel` on `socketID` and hands the answer to the engine. The
    /// timeout is the engine's timer: when it fires, `cancel` cancels the call.
    ///
    /// - Parameter isKeyReload: Whether this asks again for an encrypted channel's key.
    nonisolated func runAuthorization(
        channel: String, socketID: String, isKeyReload: Bool = false, cancel: CallCancellation
    ) async {
        guard let authorizer = self.withEngine({ $0.authorizer }) else { return }
        await withSpan(isKeyReload ? "pusher.reload_key" : "pusher.authorize", ofKind: .client) { span in
            span.attributes["pusher.channel"] = channel
            span.attributes["pusher.socket_id"] = socketID
            let outcome = await self.call(code: .authorizationFailed, what: "the authorizer", channel: channel, cancel)
            {
                try await authorizer.authorize(socketID, channel, settings: AuthEndpointSettings(self.configuration))
            }
            switch outcome {
            case .answered(let result):
                Self.record(result, on: span)
                self.withEngine {
                    $0.authorized(
                        channel: channel, socketID: socketID, isKeyReload: isKeyReload, result: result, cancel: cancel)
                }
            case .cancelled(let reason):
                if let reason { Self.markFailed(span, with: reason) }
            }
        }
    }

    /// Asks the user authenticator for `socketID` and hands the answer to the engine; `cancel`
    /// cancels the call when the engine's timeout fires.
    nonisolated func runUserAuthentication(socketID: String, cancel: CallCancellation) async {
        guard let authenticator = self.configuration.userAuthenticator else { return }
        await withSpan("pusher.sign_in", ofKind: .client) { span in
            span.attributes["pusher.socket_id"] = socketID
            let outcome = await self.call(code: .signInFailed, what: "the user authenticator", channel: nil, cancel) {
                try await authenticator.authenticate(socketID, settings: AuthEndpointSettings(self.configuration))
            }
            switch outcome {
            case .answered(let result):
                Self.record(result, on: span)
                self.withEngine { $0.userAuthenticated(socketID: socketID, result: result, cancel: cancel) }
            case .cancelled(let reason):
                if let reason { Self.markFailed(span, with: reason) }
            }
        }
    }

    private nonisolated static func record<Value>(_ result: Result<Value, PusherError>, on span: any Span) {
        if case .failure(let error) = result { Self.markFailed(span, with: error) }
    }

    /// Runs `body` in the current task until it answers (a thrown error becomes a `PusherError`
    /// with `code`), or until `cancel` fires or the task is cancelled: then `body` is cancelled
    /// with the task (see ``WaitableState/run(until:_:)``), and its answer, if any, is dropped.
    private nonisolated func call<Value: Sendable>(
        code: PusherError.Code,
        what: String,
        channel: String?,
        _ cancel: CallCancellation,
        _ body: () async throws -> Value
    ) async -> CallOutcome<Value> {
        let answer = await cancel.run(until: { $0 != nil }) { () async -> Result<Value, PusherError> in
            do {
                return .success(try await body())
            } catch let error as PusherError {
                return .failure(error)
            } catch {
                return .failure(PusherError(code, "\(what) failed: \(error)", channel: channel, cause: error))
            }
        }
        // The engine gave up on the call (its timeout fired, or the channel went).
        if let reason = cancel.withLock({ $0 }) { return .cancelled(reason) }
        // The run is ending: what the call answered, if anything, is not needed.
        guard let answer, !Task.isCancelled else { return .cancelled(nil) }
        return .answered(answer)
    }
}
