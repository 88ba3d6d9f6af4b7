// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// What a new consumer wants.
    package enum ConsumerRequest: Sendable, Hashable {
        /// Events of `channel`, optionally of one name, with an authorization obtained by the user.
        case channel(String, eventName: String?, authorization: ProvidedAuthorization?)
        /// Events of several channels, optionally of one name, with one buffer.
        case channels([String], eventName: String?)
        /// Membership changes of a presence channel.
        case presence(String, authorization: ProvidedAuthorization?)
        /// Every event of every channel that has a consumer.
        case all
        /// Events of the signed-in user, optionally of one name.
        case user(eventName: String?)
    }

    /// A consumer number that no consumer has had: the driver numbers its notification consumers
    /// in the same space as the engine's (see ``addConsumer(_:id:at:)``).
    package mutating func makeConsumerID() -> ConsumerID {
        self.consumers.makeID()
    }

    /// Registers a consumer, subscribing its channel if it is the first one (`now` dates the
    /// timeout of an authorizer call this starts).
    ///
    /// - Parameter id: The consumer's number, from ``makeConsumerID()``; a new one when nil.
    /// - Returns: The consumer's number and the actions to perform, or nil when the engine has
    ///   finished (the driver then hands out a finished sequence).
    /// - Throws: ``PusherError`` for an invalid channel name, a kind that needs what the client
    ///   lacks (an authorizer, libsodium), or an authorization that the channel cannot take.
    package mutating func addConsumer(
        _ request: ConsumerRequest, id: ConsumerID? = nil, at now: Duration
    ) throws(PusherError) -> (
        id: ConsumerID, actions: [Action]
    )? {
        guard !self.isFinished else { return nil }
        self.now = now
        var actions: [Action] = []
        switch request {
        case .channel(let name, let eventName, let authorization):
            let channel = try self.subscribableChannel(name, provided: authorization)
            let id = self.consumers.add(.channels([name], eventName: eventName), id: id)
            self.consumerAdded(on: channel, into: &actions)
            return (id, actions)
        case .channels(let names, let eventName):
            var unique: [String] = []
            var seen = Set<String>()
            for name in names where seen.insert(name).inserted { unique.append(name) }
            guard !unique.isEmpty else { throw PusherError(.invalidChannelName, "no channel to subscribe to") }
            // Every name is checked before anything is subscribed.
            var channels: [ChannelName] = []
            for name in unique { channels.append(try self.subscribableChannel(name, provided: nil)) }
            let id = self.consumers.add(.channels(unique, eventName: eventName), id: id)
            for channel in channels { self.consumerAdded(on: channel, into: &actions) }
            return (id, actions)
        case .presence(let name, let authorization):
            let channel = try self.subscribableChannel(name, provided: authorization)
            guard channel.kind == .presence else {
                throw PusherError(.invalidChannelName, "membership is only known on presence- channels", channel: name)
            }
            let id = self.consumers.add(.presence(name), id: id)
            if let roster = self.rosters[channel] {
                actions.append(.deliverPresence(.snapshot(roster.snapshot), consumer: id))
            }
            self.consumerAdded(on: channel, into: &actions)
            return (id, actions)
        case .all:
            return (self.consumers.add(.all, id: id), [])
        case .user(let eventName):
            let id = self.consumers.add(.user(eventName: eventName), id: id)
            return (id, [.consumersChanged(channel: nil)])
        }
    }

    /// Forgets consumer `id` (its iterator ended, was cancelled, or fell too far behind);
    /// unsubscribes its channel if it was the last one. Unknown numbers are ignored.
    package mutating func removeConsumer(_ id: ConsumerID) -> [Action] {
        guard let scope = self.consumers.remove(id) else { return [] }
        var actions: [Action] = [.finishConsumer(id, error: nil)]
        switch scope {
        case .channels(let channels, _):
            // Names in the table were validated when the consumer was added.
            for channel in channels { self.consumerRemoved(from: ChannelName(unchecked: channel), into: &actions) }
        case .presence(let channel):
            self.consumerRemoved(from: ChannelName(unchecked: channel), into: &actions)
        case .all:
            break
        case .user:
            actions.append(.consumersChanged(channel: nil))
        }
        return actions
    }

    /// Validates `name` for subscribing: a valid name, a supported kind, an authorizer if needed.
    private mutating func subscribableChannel(_ name: String, provided: ProvidedAuthorization?) throws(PusherError)
        -> ChannelName
    {
        let channel = try ChannelName(validating: name)
        if channel.kind == .privateEncrypted {
            guard self.configuration.encryptionAvailable else {
                throw PusherError(
                    .encryptionUnavailable, "private-encrypted channels need a secretbox, and this process has none",
                    channel: name)
            }
            if provided != nil {
                throw PusherError(
                    .invalidConfiguration,
                    "private-encrypted channels take no provided authorization: their key must be reloadable through the authorizer",
                    channel: name
                )
            }
        }
        if let provided {
            guard channel.kind == .private || channel.kind == .presence else {
                throw PusherError(
                    .invalidConfiguration,
                    "a provided authorization is only accepted for private and presence channels", channel: name)
            }
            self.providedAuthorizations[channel] = provided
            return channel
        }
        if channel.requiresAuthorization && !self.configuration.hasAuthorizer {
            throw PusherError(
                .authorizationRequired,
                "\(channel.kind) channels need an authorizer (PusherClientConfiguration.authorizer)",
                channel: name)
        }
        return channel
    }
}
