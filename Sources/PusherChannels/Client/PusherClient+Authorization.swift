// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// Authorizes `channel` for `socketID`: with the authorization passed when subscribing if it was
    /// made for this socket id (used once), else through the authorizer, else fails the subscription.
    func authorize(_ channel: String, socketID: String) {
        if let provided = self.providedAuthorizations.removeValue(forKey: channel) {
            if provided.socketID == socketID {
                self.log(.debug, "using the provided authorization", ["pusher.channel": "\(channel)"])
                self.authorizationCompleted(channel: channel, socketID: socketID, result: .success(provided.authorization))
                return
            }
            self.log(.debug, "the provided authorization is for another socket", ["pusher.channel": "\(channel)"])
        }
        guard self.options.authorizer != nil else {
            let error = PusherError(
                .authorizationRequired,
                "no authorization for socket \(socketID): a provided authorization is good for one connection only; "
                    + "set PusherClientOptions.authorizer to subscribe again after a reconnect",
                channel: channel
            )
            self.perform(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error))
            return
        }
        self.log(.debug, "authorizing", ["pusher.channel": "\(channel)"])
        self.commands.yield(.authorize(channel: channel, socketID: socketID))
    }

    /// Asks the authorizer for `channel` on `socketID`, bounded by the authorization timeout on the
    /// injected clock, and hands the answer to the subscription state machine.
    ///
    /// - Parameter isKeyReload: Whether this asks again for an encrypted channel's key (the answer
    ///   goes to the decryption state machine instead).
    nonisolated func runAuthorization(channel: String, socketID: String, isKeyReload: Bool = false) async {
        guard let authorizer = self.options.authorizer else { return }
        await self.timed(code: .authorizationFailed, what: "the authorizer", channel: channel) {
            try await authorizer.authorize(socketID, channel)
        } completion: { result in
            if isKeyReload {
                await self.keyReloaded(channel: channel, socketID: socketID, result: result)
            } else {
                await self.authorizationCompleted(channel: channel, socketID: socketID, result: result)
            }
        }
    }

    /// Runs `body` against the authorization timeout on the injected clock and hands its result (a
    /// thrown error or the timeout as a `PusherError` with `code`) to `completion`, unless the
    /// task is cancelled.
    nonisolated func timed<Value: Sendable>(
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

    func authorizationCompleted(channel: String, socketID: String, result: Result<ChannelAuthorization, PusherError>) {
        switch result {
        case .success(let authorization) where channel.hasPrefix("presence-") && authorization.channelData == nil:
            let error = PusherError(.authorizationFailed, "the authorization of a presence channel has no channel_data", channel: channel)
            self.perform(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error))
        case .success(let authorization) where channel.hasPrefix("private-encrypted-"):
            guard let key = authorization.sharedSecret.flatMap(EncryptedPayload.key(fromSharedSecret:)) else {
                let problem = authorization.sharedSecret == nil ? "has no shared_secret" : "has a shared_secret that is not base64 of 32 bytes"
                let error = PusherError(.authorizationFailed, "the authorization of an encrypted channel \(problem)", channel: channel)
                self.perform(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error))
                return
            }
            let action = self.subscriptions.authorizationSucceeded(
                channel,
                socketID: socketID,
                authorization: authorization.auth,
                channelData: authorization.channelData
            )
            if case .subscribe = action { self.perform(self.decryption.subscribed(channel, key: key)) }
            self.perform(action)
        case .success(let authorization):
            self.perform(
                self.subscriptions.authorizationSucceeded(
                    channel,
                    socketID: socketID,
                    authorization: authorization.auth,
                    channelData: authorization.channelData
                )
            )
        case .failure(var error):
            error.channel = error.channel ?? channel
            self.perform(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error))
        }
    }

    /// A `pusher:error` names no channel, but refusals of a subscription ("Existing subscription to
    /// channel X", "Invalid signature: … of socket:channel …") mention it: fail the matching
    /// subscription that is waiting for confirmation.
    ///
    /// - Returns: Whether the error was matched to a subscription.
    @discardableResult
    func failPendingSubscription(matching error: PusherError) -> Bool {
        guard error.channel == nil else { return false }
        var matched = false
        for channel in self.subscriptions.awaitingConfirmation where Self.mentions(error.message, channel: channel) {
            var failure = error
            failure.code = .subscriptionFailed
            failure.channel = channel
            matched = true
            for action in self.subscriptions.subscriptionFailed(channel, error: failure) { self.perform(action) }
        }
        return matched
    }

    /// Whether `message` names `channel` as a whole word: a run of channel-name characters equal to
    /// it, allowing one trailing `,` or `.` of the sentence.
    static func mentions(_ message: String, channel: String) -> Bool {
        let isNameCharacter: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || "_-=@,.;".contains($0)) }
        for token in message.split(whereSeparator: { !isNameCharacter($0) }) {
            if token == channel { return true }
            if let last = token.last, last == "," || last == ".", token.dropLast() == channel { return true }
        }
        return false
    }
}
