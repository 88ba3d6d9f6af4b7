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
            let (_, token) = self.register(.presence(channel, authorization: authorization), .presence(buffer))
            return (buffer, token)
        }
    }

    /// The members of a subscribed presence channel now, or nil before its subscription succeeded.
    public func members(of channel: String) -> PresenceSnapshot? {
        self.withEngine { $0.engine.members(of: channel) }
    }

    /// Registers an event consumer now (see ``register(_:_:)``) and returns its buffer.
    nonisolated func registerEventConsumer(
        _ request: ClientEngine.ConsumerRequest,
        channel: String?,
        buffering: BufferingPolicy
    ) -> (ConsumerBuffer<ChannelEvent>, ListenerToken) {
        let buffer = ConsumerBuffer<ChannelEvent>(channel: channel, policy: buffering, gate: self.flowGate)
        return (buffer, self.register(request, .events(buffer)).token)
    }

    /// Registers a consumer now, in the caller's context: from the moment this returns, every
    /// input the engine handles (a read, a command, a client event) sees it. Returns the engine's
    /// number for it (nil when it was refused: its buffer is then finished, with the error that
    /// refused it, such as an invalid name or a missing authorizer, so the first `next()` throws
    /// it) and the token whose release removes it.
    nonisolated func register(
        _ request: ClientEngine.ConsumerRequest, _ buffer: ConsumerRegistry.NewConsumer
    ) -> (id: ConsumerID?, token: ListenerToken) {
        guard let id = self.withEngine({ $0.addConsumer(request, buffer) }) else {
            return (nil, ListenerToken {})
        }
        let token = ListenerToken { [weak self] in
            self?.withEngine { driver in driver.perform(driver.engine.removeConsumer(id)) }
        }
        return (id, token)
    }

    /// Registers a notification consumer now, with ``PusherClientOptions/notificationBuffering``
    /// (by default nothing is lost: reading pauses while it is behind); `first` gives an element to
    /// deliver at once (the current state). After the run it gets `first` and its end.
    nonisolated func observe<Element: Sendable>(
        _ observer: (ConsumerBuffer<Element>) -> ConsumerRegistry.Observer,
        first: ((ClientDriver) -> Element)? = nil
    ) -> (ConsumerBuffer<Element>, ListenerToken) {
        let policy = self.options.notificationBuffering
        let buffer = ConsumerBuffer<Element>(
            channel: nil, policy: policy, gate: self.flowGate, ceiling: ConsumerRegistry.observerCeiling(policy)
        ) { _ in 0 }
        let id = self.withEngine { driver -> Int? in
            if let first { _ = buffer.deliver(contentsOf: CollectionOfOne(first(driver))) }
            return driver.registry.add(observer(buffer))
        }
        guard let id else {
            buffer.finish()
            return (buffer, ListenerToken {})
        }
        return (buffer, ListenerToken { [weak self] in self?.withEngine { $0.registry.removeObserver(id) } })
    }
}
