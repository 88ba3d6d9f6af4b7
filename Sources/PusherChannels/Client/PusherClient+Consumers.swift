// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Events of `channel`, optionally only those named `eventName`. See ``ChannelEventSequence``.
    ///
    /// - Parameters:
    ///   - channel: The channel's name; its prefix (`private-`, `presence-`, …) gives its kind.
    ///   - eventName: Only events with this name, or every event of the channel with `nil`.
    ///   - authorization: For a private or presence channel, an authorization you obtained yourself
    ///     for the current connection; used once instead of asking the authorizer. See
    ///     ``ProvidedAuthorization``.
    ///   - buffering: Overrides ``PusherClientOptions/buffering`` for this consumer.
    public nonisolated func events(
        on channel: String,
        named eventName: String? = nil,
        authorization: ProvidedAuthorization? = nil,
        buffering: BufferingPolicy? = nil
    ) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelEventSequence { () async throws(PusherError) in
            try await self.addEventConsumer(
                .channel(channel, eventName: eventName, authorization: authorization), channel: channel,
                buffering: buffering)
        }
    }

    /// Events of several channels, optionally only those named `eventName`, in one sequence with one
    /// buffer: the cheap way to follow many channels (one task and one buffer instead of one per
    /// channel). Each channel is subscribed like with ``events(on:named:authorization:buffering:)``.
    /// When one channel's subscription fails, the others keep flowing (the failure is on
    /// ``subscriptionEvents(on:)`` and ``errors``); the sequence throws only when none is left.
    ///
    /// - Throws: ``PusherError`` (from the first `next()`) when a name is invalid or needs an
    ///   authorizer the client lacks; then nothing is subscribed.
    public nonisolated func events(
        on channels: [String], named eventName: String? = nil, buffering: BufferingPolicy? = nil
    ) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelEventSequence { () async throws(PusherError) in
            try await self.addEventConsumer(
                .channels(channels, eventName: eventName), channel: channels.count == 1 ? channels[0] : nil,
                buffering: buffering)
        }
    }

    /// Every event of every channel that has a consumer, once each. Does not subscribe to anything by
    /// itself.
    public nonisolated func allEvents(buffering: BufferingPolicy? = nil) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelEventSequence { () async throws(PusherError) in
            try await self.addEventConsumer(.all, channel: nil, buffering: buffering)
        }
    }

    /// Membership changes of a presence channel: the current members first (and again after every
    /// resubscription, replacing what was known), then additions and removals. Iterating subscribes
    /// the channel, like ``events(on:named:authorization:buffering:)``; it needs an authorizer that
    /// gives `channel_data`, or an `authorization` you obtained for the current connection (see
    /// ``ProvidedAuthorization``).
    public nonisolated func presence(on channel: String, authorization: ProvidedAuthorization? = nil)
        -> PresenceChangeSequence
    {
        PresenceChangeSequence { () async throws(PusherError) in
            try await self.addPresenceConsumer(channel: channel, authorization: authorization)
        }
    }

    /// The members of a subscribed presence channel now, or nil before its subscription succeeded.
    public func members(of channel: String) -> PresenceSnapshot? {
        self.engine.members(of: channel)
    }

    func addEventConsumer(
        _ request: ClientEngine.ConsumerRequest,
        channel: String?,
        buffering: BufferingPolicy
    ) throws(PusherError) -> (ConsumerBuffer<ChannelEvent>, ListenerToken)? {
        guard let (id, actions) = try self.engine.addConsumer(request) else { return nil }
        let buffer = ConsumerBuffer<ChannelEvent>(channel: channel, policy: buffering)
        self.eventConsumers[id] = EventConsumer(id: id, buffer: buffer)
        self.perform(actions)
        return (buffer, ListenerToken(id: id, commands: self.commands))
    }

    private func addPresenceConsumer(
        channel: String,
        authorization: ProvidedAuthorization?
    ) throws(PusherError) -> (ConsumerBuffer<PresenceChange>, ListenerToken)? {
        guard let (id, actions) = try self.engine.addConsumer(.presence(channel, authorization: authorization)) else {
            return nil
        }
        let policy = BufferingPolicy(limit: self.options.buffering.limit, whenFull: .fail)
        let buffer = ConsumerBuffer<PresenceChange>(channel: channel, policy: policy)
        self.presenceConsumers[id] = buffer
        self.perform(actions)
        return (buffer, ListenerToken(id: id, commands: self.commands))
    }
}
