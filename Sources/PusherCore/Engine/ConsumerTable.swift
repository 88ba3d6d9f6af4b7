// SPDX-License-Identifier: MIT

/// Who consumes what: the engine's bookkeeping of event and presence consumers by channel, of
/// all-channel consumers and of the signed-in user's consumers. Consumers are numbered; the driver
/// keeps each one's buffer under the same number.
struct ConsumerTable: Sendable {
    /// What a consumer listens to.
    enum Scope: Sendable, Hashable {
        case channel(String, eventName: String?)
        case presence(String)
        case all
        case user(eventName: String?)
    }

    struct EventConsumer: Sendable, Hashable {
        var id: Int
        /// Only events of this name, or all of them.
        var eventName: String?

        func takes(_ name: String) -> Bool { self.eventName == nil || self.eventName == name }
    }

    /// The consumers of one channel.
    struct Channel: Sendable {
        var events: [EventConsumer] = []
        var presence: [Int] = []
        var count: Int { self.events.count + self.presence.count }
    }

    private(set) var channels: [String: Channel] = [:]
    private(set) var all: [Int] = []
    private(set) var user: [EventConsumer] = []
    private var scopes: [Int: Scope] = [:]
    private var lastID = 0

    /// Registers a consumer and returns its number.
    mutating func add(_ scope: Scope) -> Int {
        self.lastID += 1
        let id = self.lastID
        self.scopes[id] = scope
        switch scope {
        case .channel(let channel, let eventName):
            self.channels[channel, default: Channel()].events.append(EventConsumer(id: id, eventName: eventName))
        case .presence(let channel):
            self.channels[channel, default: Channel()].presence.append(id)
        case .all:
            self.all.append(id)
        case .user(let eventName):
            self.user.append(EventConsumer(id: id, eventName: eventName))
        }
        return id
    }

    /// Forgets consumer `id`; returns what it listened to, or nil if it was unknown.
    mutating func remove(_ id: Int) -> Scope? {
        guard let scope = self.scopes.removeValue(forKey: id) else { return nil }
        switch scope {
        case .channel(let channel, _), .presence(let channel):
            guard var entry = self.channels[channel] else { break }
            entry.events.removeAll { $0.id == id }
            entry.presence.removeAll { $0 == id }
            self.channels[channel] = entry.count == 0 ? nil : entry
        case .all:
            self.all.removeAll { $0 == id }
        case .user:
            self.user.removeAll { $0.id == id }
        }
        return scope
    }

    /// Forgets every consumer of `channel` (events and presence); returns their numbers.
    mutating func removeChannel(_ channel: String) -> [Int] {
        guard let entry = self.channels.removeValue(forKey: channel) else { return [] }
        let ids = entry.events.map(\.id) + entry.presence
        for id in ids { self.scopes[id] = nil }
        return ids
    }

    /// Forgets every consumer; returns their numbers in registration order.
    mutating func removeAll() -> [Int] {
        let ids = self.scopes.keys.sorted()
        self = ConsumerTable()
        return ids
    }

    func count(on channel: String) -> Int { self.channels[channel]?.count ?? 0 }
}
