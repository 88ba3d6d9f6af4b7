// SPDX-License-Identifier: MIT

/// Who consumes what: the engine's bookkeeping of event and presence consumers by channel, of
/// all-channel consumers and of the signed-in user's consumers. Consumers are numbered
/// (``ConsumerID``); the driver keeps each one's buffer under the same number. The driver's
/// notification consumers take their numbers here too (``makeID()``): one number space for every
/// consumer of a client.
struct ConsumerTable: Sendable {
    /// What a consumer listens to.
    enum Scope: Sendable, Hashable {
        /// Events of one or more channels.
        case channels([String], eventName: String?)
        case presence(String)
        case all
        case user(eventName: String?)
    }

    /// Where a consumer's events go: its number, and the one event name it takes, if any.
    struct EventRoute: Sendable, Hashable {
        var id: ConsumerID
        /// Only events of this name, or all of them.
        var eventName: String?

        func takes(_ name: String) -> Bool { self.eventName == nil || self.eventName == name }
    }

    /// The consumers of one channel.
    struct Channel: Sendable {
        var events: [EventRoute] = []
        var presence: [ConsumerID] = []
        var count: Int { self.events.count + self.presence.count }
    }

    private(set) var channels: [String: Channel] = [:]
    private(set) var all: [ConsumerID] = []
    private(set) var user: [EventRoute] = []
    private var scopes: [ConsumerID: Scope] = [:]
    private var lastID = 0

    /// A new number, never given before by this table.
    mutating func makeID() -> ConsumerID {
        self.lastID += 1
        return ConsumerID(self.lastID)
    }

    /// Registers a consumer under `id` (a new number when nil, see ``makeID()``) and returns it.
    mutating func add(_ scope: Scope, id: ConsumerID? = nil) -> ConsumerID {
        let id = id ?? self.makeID()
        self.scopes[id] = scope
        switch scope {
        case .channels(let channels, let eventName):
            for channel in channels {
                self.channels[channel, default: Channel()].events.append(EventRoute(id: id, eventName: eventName))
            }
        case .presence(let channel):
            self.channels[channel, default: Channel()].presence.append(id)
        case .all:
            self.all.append(id)
        case .user(let eventName):
            self.user.append(EventRoute(id: id, eventName: eventName))
        }
        return id
    }

    /// Forgets consumer `id`; returns what it listened to, or nil if it was unknown.
    mutating func remove(_ id: ConsumerID) -> Scope? {
        guard let scope = self.scopes.removeValue(forKey: id) else { return nil }
        switch scope {
        case .channels(let channels, _):
            for channel in channels { self.remove(id, from: channel) }
        case .presence(let channel):
            self.remove(id, from: channel)
        case .all:
            self.all.removeAll { $0 == id }
        case .user:
            self.user.removeAll { $0.id == id }
        }
        return scope
    }

    private mutating func remove(_ id: ConsumerID, from channel: String) {
        guard var entry = self.channels[channel] else { return }
        entry.events.removeAll { $0.id == id }
        entry.presence.removeAll { $0 == id }
        self.channels[channel] = entry.count == 0 ? nil : entry
    }

    /// Takes `channel` away from its consumers (its subscription failed). Returns the consumers
    /// that have no channel left, now forgotten; a consumer of several channels keeps the others.
    mutating func removeChannel(_ channel: String) -> [ConsumerID] {
        guard let entry = self.channels.removeValue(forKey: channel) else { return [] }
        var ended = entry.presence
        for consumer in entry.events {
            guard case .channels(var channels, let eventName)? = self.scopes[consumer.id] else { continue }
            channels.removeAll { $0 == channel }
            if channels.isEmpty {
                ended.append(consumer.id)
            } else {
                self.scopes[consumer.id] = .channels(channels, eventName: eventName)
            }
        }
        for id in ended { self.scopes[id] = nil }
        return ended.sorted()
    }

    /// Forgets every consumer; returns their numbers in registration order. Numbers are still not
    /// reused.
    mutating func removeAll() -> [ConsumerID] {
        let ids = self.scopes.keys.sorted()
        let lastID = self.lastID
        self = ConsumerTable()
        self.lastID = lastID
        return ids
    }

    func count(on channel: String) -> Int { self.channels[channel]?.count ?? 0 }
}
