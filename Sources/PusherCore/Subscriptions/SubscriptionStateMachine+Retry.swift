// SPDX-License-Identifier: MIT

// Refusals under a ``SubscriptionRetry`` policy: the consumers stay, the channel waits
// (`waitingToRetry`) for a delay of the policy's backoff, then is authorized and subscribed again.
// The delay grows with each refusal in a row and starts afresh after a confirmation; a channel whose
// last consumer leaves stops waiting at once. While it waits, a lost or new connection does not
// subscribe it: the delay holds across reconnects.
extension SubscriptionStateMachine {
    /// `channel`, which has consumers, was refused with `error` at `now`: ``Action/retry(_:_:delay:)``
    /// when the policy retries it, else ``Action/failed(_:_:)`` (the channel is forgotten).
    mutating func refused(_ channel: ChannelName, error: PusherError, at now: Duration) -> Action? {
        guard var entry = self.entries[channel] else { return nil }
        guard let backoff = self.retry.backoff, Self.isRetryable(error),
            backoff.maximumAttempts.map({ entry.failures < $0 }) ?? true
        else {
            self.entries[channel] = nil
            return .failed(channel, error)
        }
        if entry.server == .subscribed { entry.lastKnownSubscribed = now }
        entry.failures += 1
        entry.server = .waitingToRetry
        self.entries[channel] = entry
        let delay = backoff.delay(forAttempt: entry.failures, random: self.jitter.next())
        return .retry(channel, error, delay: delay)
    }

    /// The retry of `channel` is due: authorize or subscribe it on the current connection, or on
    /// the next one when there is none. Nothing for a channel that no longer waits.
    package mutating func retryDue(_ channel: ChannelName) -> Action? {
        guard var entry = self.entries[channel], entry.server == .waitingToRetry else { return nil }
        entry.server = .pending
        self.entries[channel] = entry
        return self.start(channel)
    }

    /// Whether `channel` waits for a retry now.
    package func isWaitingToRetry(_ channel: ChannelName) -> Bool {
        self.entries[channel]?.server == .waitingToRetry
    }

    /// Refusals no retry can mend: the client has no authorization to offer at all, or the
    /// authorizer is configured wrong (a form parameter that would replace `socket_id`).
    private static func isRetryable(_ error: PusherError) -> Bool {
        error.code != .authorizationRequired && error.code != .invalidConfiguration
    }
}
