// SPDX-License-Identifier: MIT

/// Channel subscriptions as desired state, reconciled with the server.
///
/// Consumers come and go per channel; the server sees one subscription per channel while at least
/// one consumer listens. The first consumer subscribes, the last one leaving unsubscribes. While a
/// subscribe is in flight, a leave marks it *cancelling* (the unsubscribe is sent when the server
/// confirms) and a new consumer arriving in that window simply takes it back, so fast
/// subscribe → unsubscribe → subscribe settles on one live server subscription. After a
/// reconnect every channel with consumers is subscribed again and its success is flagged as a
/// resubscription.
///
/// Pure: it returns ``Action``s for the driver to send or report.
public struct SubscriptionStateMachine: Sendable {
    public enum Action: Sendable, Hashable {
        case subscribe(ChannelName)
        case unsubscribe(String)
        /// The server confirmed a subscription. `isResubscription` is true when the channel had been
        /// subscribed before on an earlier connection (events may have been missed in between).
        case succeeded(String, isResubscription: Bool)
        case failed(String, PusherError)
    }

    private enum ServerState: Sendable, Hashable {
        /// Nothing sent on the current connection (or no connection).
        case pending
        case subscribing
        /// Subscribe sent, then every consumer left: unsubscribe once the server confirms.
        case cancelling
        case subscribed
    }

    private struct Entry: Sendable {
        var name: ChannelName
        var consumers: Int
        var server: ServerState
        var hasBeenSubscribed: Bool
    }

    private var entries: [String: Entry] = [:]
    private var isConnected = false

    public init() {}

    /// Channels with at least one consumer.
    public var channelNames: [String] {
        self.entries.values.filter { $0.consumers > 0 }.map(\.name.rawValue).sorted()
    }

    public func isSubscribed(_ channel: String) -> Bool {
        self.entries[channel]?.server == .subscribed
    }

    /// A consumer started listening on `channel`.
    public mutating func consumerAdded(_ channel: ChannelName) -> Action? {
        let name = channel.rawValue
        guard var entry = self.entries[name] else {
            self.entries[name] = Entry(name: channel, consumers: 1, server: .pending, hasBeenSubscribed: false)
            guard self.isConnected else { return nil }
            self.entries[name]!.server = .subscribing  // inserted just above
            return .subscribe(channel)
        }
        entry.consumers += 1
        if entry.consumers == 1 && entry.server == .cancelling { entry.server = .subscribing }
        self.entries[name] = entry
        return nil
    }

    /// A consumer of `channel` went away.
    public mutating func consumerRemoved(_ channel: String) -> Action? {
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
        }
    }

    /// The connection is ready: subscribe every channel that has consumers.
    public mutating func connected() -> [Action] {
        self.isConnected = true
        var actions: [Action] = []
        for name in self.entries.keys.sorted() {
            guard var entry = self.entries[name] else { continue }
            guard entry.consumers > 0 else {
                self.entries[name] = nil
                continue
            }
            entry.server = .subscribing
            self.entries[name] = entry
            actions.append(.subscribe(entry.name))
        }
        return actions
    }

    /// The connection is gone: every subscription must be made again on the next one.
    public mutating func disconnected() {
        self.isConnected = false
        for (name, entry) in self.entries {
            if entry.consumers == 0 {
                self.entries[name] = nil
            } else {
                self.entries[name]!.server = .pending  // `name` comes from iterating `entries`
            }
        }
    }

    /// `pusher_internal:subscription_succeeded` arrived for `channel`.
    public mutating func subscriptionSucceeded(_ channel: String) -> Action? {
        guard var entry = self.entries[channel] else { return nil }
        switch entry.server {
        case .subscribing:
            let isResubscription = entry.hasBeenSubscribed
            entry.server = .subscribed
            entry.hasBeenSubscribed = true
            self.entries[channel] = entry
            return .succeeded(channel, isResubscription: isResubscription)
        case .cancelling:
            self.entries[channel] = nil
            return .unsubscribe(channel)
        case .pending, .subscribed:
            return nil
        }
    }

    /// The server refused `channel`. Its consumers are failed and forgotten; subscribing again retries.
    public mutating func subscriptionFailed(_ channel: String, error: PusherError) -> Action? {
        guard let entry = self.entries.removeValue(forKey: channel) else { return nil }
        return entry.consumers > 0 ? .failed(channel, error) : nil
    }
}
