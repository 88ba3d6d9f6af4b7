// SPDX-License-Identifier: MIT

/// Channel subscriptions as desired state, reconciled with the server.
///
/// Consumers come and go per channel; the server sees one subscription per channel while at least
/// one consumer listens. The first consumer subscribes, the last one leaving unsubscribes. While a
/// subscribe is in flight, a leave marks it *cancelling* (the unsubscribe is sent when the server
/// confirms) and a new consumer arriving in that window simply takes it back, so fast
/// subscribe → unsubscribe → subscribe settles on one live server subscription. After a
/// reconnect every channel with consumers is subscribed again and its success is flagged as a
/// resubscription, with the window it may have missed events in (``MissedWindow``).
///
/// A refusal (by the authorizer or the server) ends the channel's consumers, or, with a
/// ``SubscriptionRetry`` policy, keeps them and subscribes again after a delay (see
/// `SubscriptionStateMachine+Retry.swift`).
///
/// Channels that need authorization are authorized afresh for every socket id: the request carries
/// the socket id, and a result for any other socket id is discarded (a new request is already under
/// way for the current one). If every consumer left while the authorization was in flight, no
/// subscribe is sent at all.
///
/// Pure: it returns ``Action``s for the driver to send or report.
package struct SubscriptionStateMachine: Sendable {
    package enum Action: Sendable, Hashable {
        /// Ask the authorizer for `channel` on `socketID`; report with
        /// ``SubscriptionStateMachine/authorizationSucceeded(_:socketID:authorization:channelData:)`` or
        /// ``SubscriptionStateMachine/authorizationFailed(_:socketID:error:)``.
        case authorize(ChannelName, socketID: String)
        /// Send `pusher:subscribe` (with `auth` and `channel_data` for authorized channels).
        case subscribe(ChannelName, auth: String?, channelData: String?)
        case unsubscribe(ChannelName)
        /// The server confirmed a subscription. `isResubscription` is true when the channel had been
        /// subscribed before on an earlier connection (events may have been missed in between);
        /// then `missedWindow` says when.
        case succeeded(ChannelName, isResubscription: Bool, missedWindow: MissedWindow?)
        /// The subscription failed for good: its consumers end with the error.
        case failed(ChannelName, PusherError)
        /// The subscription failed and is retried: report the failure, keep the consumers, and call
        /// ``SubscriptionStateMachine/retryDue(_:)`` after `delay`.
        case retry(ChannelName, PusherError, delay: Duration)
        /// Every consumer left a channel waiting for its retry: the retry must not happen.
        case cancelRetry(ChannelName)
    }

    enum ServerState: Sendable, Hashable {
        /// Nothing sent on the current connection (or no connection).
        case pending
        /// Waiting for the authorizer's answer for this socket id.
        case authorizing(socketID: String)
        case subscribing
        /// Subscribe sent, then every consumer left: unsubscribe once the server confirms.
        case cancelling
        case subscribed
        /// Refused; subscribed again when the retry is due (``SubscriptionRetry``).
        case waitingToRetry
    }

    struct Entry: Sendable {
        var consumers: Int
        var server: ServerState
        var hasBeenSubscribed: Bool
        /// Refusals since the last confirmation (retries in a row).
        var failures = 0
        /// When the client last knew the channel subscribed, once it stopped being so.
        var lastKnownSubscribed: Duration?
    }

    var entries: [ChannelName: Entry] = [:]
    /// The socket id of the ready connection.
    var socketID: String?
    /// What a refusal leads to.
    let retry: SubscriptionRetry
    /// The jitter of retry delays.
    var jitter: JitterSource

    /// A machine whose refusals follow `retry`, with retry delays jittered from `seed`.
    package init(retry: SubscriptionRetry = .never, seed: UInt64 = 0) {
        self.retry = retry
        self.jitter = JitterSource(seed: seed)
    }

    /// Channels with at least one consumer.
    package var channelNames: [ChannelName] {
        self.entries.filter { $0.value.consumers > 0 }.map(\.key).sorted()
    }

    package func isSubscribed(_ channel: ChannelName) -> Bool {
        self.entries[channel]?.server == .subscribed
    }

    /// Channels the server has confirmed (O(channels): for metrics, not the per-event path).
    package var subscribedChannelCount: Int {
        self.entries.values.reduce(0) { count, entry in entry.server == .subscribed ? count + 1 : count }
    }

    /// Channels whose subscribe was sent and not yet confirmed.
    package var awaitingConfirmation: [ChannelName] {
        self.entries.filter { $0.value.server == .subscribing }.map(\.key).sorted()
    }

    /// What to do to start subscribing `channel` on the current connection.
    mutating func start(_ channel: ChannelName) -> Action? {
        guard let socketID, var entry = self.entries[channel] else { return nil }
        if channel.requiresAuthorization {
            entry.server = .authorizing(socketID: socketID)
            self.entries[channel] = entry
            return .authorize(channel, socketID: socketID)
        }
        entry.server = .subscribing
        self.entries[channel] = entry
        return .subscribe(channel, auth: nil, channelData: nil)
    }

    /// A consumer started listening on `channel`.
    package mutating func consumerAdded(_ channel: ChannelName) -> Action? {
        guard var entry = self.entries[channel] else {
            self.entries[channel] = Entry(consumers: 1, server: .pending, hasBeenSubscribed: false)
            return self.start(channel)
        }
        entry.consumers += 1
        if entry.consumers == 1 && entry.server == .cancelling { entry.server = .subscribing }
        self.entries[channel] = entry
        return nil
    }

    /// A consumer of `channel` went away.
    package mutating func consumerRemoved(_ channel: ChannelName) -> Action? {
        guard var entry = self.entries[channel], entry.consumers > 0 else { return nil }
        entry.consumers -= 1
        guard entry.consumers == 0 else {
            self.entries[channel] = entry
            return nil
        }
        switch entry.server {
        case .pending:
            self.entries[channel] = nil
            return nil
        case .authorizing:
            // Kept until the authorizer answers; then nothing is sent.
            self.entries[channel] = entry
            return nil
        case .subscribing:
            entry.server = .cancelling
            self.entries[channel] = entry
            return nil
        case .cancelling:
            self.entries[channel] = entry
            return nil
        case .subscribed:
            self.entries[channel] = nil
            return .unsubscribe(channel)
        case .waitingToRetry:
            self.entries[channel] = nil
            return .cancelRetry(channel)
        }
    }

    /// The connection is ready: authorize or subscribe every channel that has consumers.
    package mutating func connected(socketID: String) -> [Action] {
        self.socketID = socketID
        var actions: [Action] = []
        for channel in self.entries.keys.sorted() {
            guard let entry = self.entries[channel] else { continue }
            guard entry.consumers > 0 else {
                self.entries[channel] = nil
                continue
            }
            // A refused channel waits for its retry, whatever the connection.
            guard entry.server != .waitingToRetry else { continue }
            if let action = self.start(channel) { actions.append(action) }
        }
        return actions
    }

    /// The connection is gone: every subscription must be made again on the next one. The channels
    /// it carried were last known subscribed at `lastKnownAlive`, when it last delivered anything.
    package mutating func disconnected(lastKnownAlive: Duration) {
        self.socketID = nil
        for (channel, var entry) in self.entries {
            guard entry.consumers > 0 else {
                self.entries[channel] = nil
                continue
            }
            if entry.server == .subscribed { entry.lastKnownSubscribed = lastKnownAlive }
            if entry.server != .waitingToRetry { entry.server = .pending }
            self.entries[channel] = entry
        }
    }

    /// The authorizer answered for `channel` on `socketID`.
    package mutating func authorizationSucceeded(
        _ channel: ChannelName, socketID: String, authorization auth: String, channelData: String?
    ) -> Action? {
        guard var entry = self.entries[channel], entry.server == .authorizing(socketID: socketID),
            socketID == self.socketID
        else {
            return nil  // stale: a request for the current socket is under way, or the channel is gone
        }
        guard entry.consumers > 0 else {
            self.entries[channel] = nil
            return nil
        }
        entry.server = .subscribing
        self.entries[channel] = entry
        return .subscribe(channel, auth: auth, channelData: channelData)
    }

    /// The authorizer failed for `channel` on `socketID`. Its consumers are failed (subscribing
    /// again retries), or kept for a retry (see ``refused(_:error:at:)``).
    package mutating func authorizationFailed(
        _ channel: ChannelName, socketID: String, error: PusherError, at now: Duration
    ) -> Action? {
        guard let entry = self.entries[channel], entry.server == .authorizing(socketID: socketID),
            socketID == self.socketID
        else {
            return nil
        }
        guard entry.consumers > 0 else {
            self.entries[channel] = nil
            return nil
        }
        return self.refused(channel, error: error, at: now)
    }

    /// `pusher_internal:subscription_succeeded` arrived for `channel` at `now`.
    package mutating func subscriptionSucceeded(_ channel: ChannelName, at now: Duration) -> Action? {
        guard var entry = self.entries[channel] else { return nil }
        switch entry.server {
        case .subscribing:
            let isResubscription = entry.hasBeenSubscribed
            let missedWindow =
                isResubscription
                ? MissedWindow(lastKnownSubscribed: entry.lastKnownSubscribed ?? now, subscribedAgain: now) : nil
            entry.server = .subscribed
            entry.hasBeenSubscribed = true
            entry.failures = 0
            entry.lastKnownSubscribed = nil
            self.entries[channel] = entry
            return .succeeded(channel, isResubscription: isResubscription, missedWindow: missedWindow)
        case .cancelling:
            self.entries[channel] = nil
            return .unsubscribe(channel)
        case .pending, .authorizing, .subscribed, .waitingToRetry:
            return nil
        }
    }

    /// The server refused `channel` at `now`. Its consumers are failed and forgotten (subscribing
    /// again retries), or kept for a retry (see ``refused(_:error:at:)``). Because the server may
    /// hold the subscription anyway (a refusal such as "Existing subscription"), an unsubscribe is
    /// sent first so that a retry starts clean.
    package mutating func subscriptionFailed(_ channel: ChannelName, error: PusherError, at now: Duration) -> [Action] {
        guard let entry = self.entries[channel], entry.server != .waitingToRetry else { return [] }
        var actions: [Action] = []
        if entry.server == .subscribing || entry.server == .subscribed || entry.server == .cancelling {
            actions.append(.unsubscribe(channel))
        }
        if entry.consumers > 0 {
            if let action = self.refused(channel, error: error, at: now) { actions.append(action) }
        } else {
            self.entries[channel] = nil
        }
        return actions
    }
}
