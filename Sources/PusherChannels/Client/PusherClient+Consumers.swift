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
        return ChannelEventSequence { [self] in
            self.registerEventConsumer(
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
    /// - Throws: ``PusherError`` (from the iterator's first `next()`) when a name is invalid or needs an
    ///   authorizer the client lacks; then nothing is subscribed.
    public nonisolated func events(
        on channels: [String], named eventName: String? = nil, buffering: BufferingPolicy? = nil
    ) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelEventSequence { [self] in
            self.registerEventConsumer(
                .channels(channels, eventName: eventName), channel: channels.count == 1 ? channels[0] : nil,
                buffering: buffering)
        }
    }

    /// Every event of every channel that has a consumer, once each. Does not subscribe to anything by
    /// itself.
    public nonisolated func allEvents(buffering: BufferingPolicy? = nil) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelEventSequence { [self] in
            self.registerEventConsumer(.all, channel: nil, buffering: buffering)
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
        PresenceChangeSequence { [self] in
            // Membership changes cannot be dropped without corrupting the roster: a full buffer
            // pauses reading (the default) or fails the consumer.
            let buffering = self.options.buffering
            let policy = BufferingPolicy(
                limit: buffering.limit, whenFull: buffering.whenFull == .pauseReading ? .pauseReading : .fail,
                byteLimit: buffering.byteLimit)
            let buffer = ConsumerBuffer<PresenceChange>(channel: channel, policy: policy, gate: self.flowGate)
            let token = self.registerConsumer(.presence(channel, authorization: authorization), .presence(buffer))
            return (buffer, token)
        }
    }

    /// The members of a subscribed presence channel now, or nil before its subscription succeeded.
    public func members(of channel: String) -> PresenceSnapshot? {
        self.registerPendingConsumers()
        return self.engine.members(of: channel)
    }

    /// Registers an event consumer now (see ``registerConsumer(_:_:)``) and returns its buffer.
    nonisolated func registerEventConsumer(
        _ request: ClientEngine.ConsumerRequest,
        channel: String?,
        buffering: BufferingPolicy
    ) -> (ConsumerBuffer<ChannelEvent>, ListenerToken) {
        let buffer = ConsumerBuffer<ChannelEvent>(channel: channel, policy: buffering, gate: self.flowGate)
        return (buffer, self.registerConsumer(request, .events(buffer)))
    }

    /// Registers a consumer synchronously: from now on, everything the actor handles (frames,
    /// commands, client events) sees it. Returns the token whose release removes it. Errors (an
    /// invalid name, a missing authorizer) end the buffer, so the first `next()` throws them.
    nonisolated func registerConsumer(
        _ request: ClientEngine.ConsumerRequest, _ buffer: PendingConsumers.Buffer,
        ticket: ConsumerTicket = ConsumerTicket()
    ) -> ListenerToken {
        if self.pendingConsumers.add(.init(request: request, buffer: buffer, ticket: ticket)) == true {
            self.commands.yield(.registerConsumers)
        }
        return ListenerToken(ticket: ticket, commands: self.commands)
    }

    /// Hands every pending consumer to the engine. Called before the actor handles anything a
    /// consumer made earlier must see.
    func registerPendingConsumers() {
        for registration in self.pendingConsumers.take() {
            guard registration.ticket.isPending else {
                registration.buffer.finish()
                continue
            }
            let added: (id: ConsumerID, actions: [ClientEngine.Action])?
            do {
                added = try self.engine.addConsumer(registration.request, at: self.clock.now)
            } catch {
                registration.ticket.refused(error)
                registration.buffer.finish(throwing: error)
                continue
            }
            guard let (id, actions) = added else {
                registration.ticket.refused(nil)
                registration.buffer.finish()
                continue
            }
            switch registration.buffer {
            case .events(let buffer): self.eventConsumers[id] = EventConsumer(id: id, buffer: buffer)
            case .presence(let buffer): self.presenceConsumers[id] = buffer
            }
            self.perform(actions)
            // Released while it was being registered: remove it again.
            if !registration.ticket.registered(as: id) { self.perform(self.engine.removeConsumer(id)) }
        }
    }
}
