// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Events of `channel`, optionally only those named `eventName`. See ``ChannelSequence``.
    ///
    /// - Parameters:
    ///   - channel: The channel's name; its prefix (`private-`, `presence-`, …) gives its kind.
    ///   - eventName: Only events with this name, or every event of the channel with `nil`.
    ///   - authorization: For a private or presence channel, an authorization you obtained yourself
    ///     for the current connection; used once instead of asking the authorizer. See
    ///     ``ProvidedAuthorization``.
    ///   - buffering: Overrides ``PusherClientConfiguration/buffering`` for this consumer.
    public nonisolated func events(
        on channel: String,
        named eventName: String? = nil,
        authorization: ProvidedAuthorization? = nil,
        buffering: BufferingPolicy? = nil
    ) -> ChannelSequence<ChannelEvent> {
        let buffering = buffering ?? self.configuration.buffering
        return ChannelSequence(channel: channel) { [self] in
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
    ) -> ChannelSequence<ChannelEvent> {
        let buffering = buffering ?? self.configuration.buffering
        return ChannelSequence(channel: channels.count == 1 ? channels[0] : nil) { [self] in
            self.registerEventConsumer(
                .channels(channels, eventName: eventName), channel: channels.count == 1 ? channels[0] : nil,
                buffering: buffering)
        }
    }

    /// Every event of every channel that has a consumer, once each. Does not subscribe to anything by
    /// itself.
    public nonisolated func allEvents(buffering: BufferingPolicy? = nil) -> ChannelSequence<ChannelEvent> {
        let buffering = buffering ?? self.configuration.buffering
        return ChannelSequence(channel: nil) { [self] in
            self.registerEventConsumer(.all, channel: nil, buffering: buffering)
        }
    }

    /// Membership changes of a presence channel: the current members first (and again after every
    /// resubscription, replacing what was known), then additions and removals. Iterating subscribes
    /// the channel, like ``events(on:named:authorization:buffering:)``; it needs an authorizer that
    /// gives `channel_data`, or an `authorization` you obtained for the current connection (see
    /// ``ProvidedAuthorization``).
    public nonisolated func presence(on channel: String, authorization: ProvidedAuthorization? = nil)
        -> ChannelSequence<PresenceChange>
    {
        ChannelSequence(channel: channel) { [self] in
            // Membership changes cannot be dropped without corrupting the roster: a full buffer
            // pauses reading (the default) or fails the consumer.
            let buffering = self.configuration.buffering
            let policy = BufferingPolicy(
                limit: buffering.limit, whenFull: buffering.whenFull == .pauseReading ? .pauseReading : .fail,
                byteLimit: buffering.byteLimit)
            return self.register(
                .presence(channel, authorization: authorization), as: ConsumerRegistry.NewConsumer.presence
            ) { self.makeConsumer($0, channel: channel, policy: policy) }.consumer
        }
    }

    /// The members of a subscribed presence channel now, or nil before its subscription succeeded.
    public func members(of channel: String) -> PresenceSnapshot? {
        self.withEngine { $0.engine.members(of: channel) }
    }

    /// Registers an event consumer now (see ``register(_:as:_:)``).
    nonisolated func registerEventConsumer(
        _ request: ClientEngine.ConsumerRequest,
        channel: String?,
        buffering: BufferingPolicy
    ) -> Consumer<ChannelEvent> {
        self.register(request, as: ConsumerRegistry.NewConsumer.events) {
            self.makeConsumer($0, channel: channel, policy: buffering)
        }.consumer
    }

    /// Registers a consumer now, in the caller's context: from the moment this returns, every
    /// input the engine handles (a read, a command, a client event) sees it. `make` makes it with
    /// the number it is given. One that was refused is finished, with the error that refused it
    /// (such as an invalid name or a missing authorizer), so the first `next()` throws it, and
    /// `registered` is false.
    nonisolated func register<Element: Sendable>(
        _ request: ClientEngine.ConsumerRequest,
        as kind: (Consumer<Element>) -> ConsumerRegistry.NewConsumer,
        _ make: (ConsumerID) -> Consumer<Element>
    ) -> (consumer: Consumer<Element>, registered: Bool) {
        self.withEngine { driver in
            let consumer = make(driver.engine.makeConsumerID())
            return (consumer, driver.addConsumer(request, kind(consumer)))
        }
    }

    /// A channel consumer numbered `id`, held back by the client's flow gate and removed from it
    /// by ``Consumer/release()``.
    nonisolated func makeConsumer<Element: BufferedElement>(
        _ id: ConsumerID, channel: String?, policy: BufferingPolicy
    ) -> Consumer<Element> {
        Consumer(id: id, channel: channel, policy: policy, gate: self.flowGate, release: self.releaser(id))
    }

    /// Whether consumer `id` is registered (an event or presence consumer; a notification one).
    nonisolated func isRegistered(_ id: ConsumerID) -> Bool {
        self.withEngine { driver in
            driver.registry.events[id] != nil || driver.registry.presence[id] != nil
                || driver.registry.observers[id] != nil
        }
    }

    /// What removes consumer `id` from this client (``Consumer/release()`` calls it once). Holds the
    /// client weakly: a consumer that outlives its client removes nothing.
    nonisolated func releaser(_ id: ConsumerID) -> @Sendable () -> Void {
        { [weak self] in self?.withEngine { $0.removeConsumer(id) } }
    }

    /// Registers a notification consumer now, with ``PusherClientConfiguration/notificationBuffering``
    /// (by default nothing is lost: reading pauses while it is behind); `first` gives an element to
    /// deliver at once (the current state). After the run it gets `first` and its end.
    nonisolated func observe<Element: Sendable>(
        _ observer: (Consumer<Element>) -> ConsumerRegistry.Observer,
        first: ((ClientDriver) -> Element)? = nil
    ) -> Consumer<Element> {
        let policy = self.configuration.notificationBuffering
        return self.withEngine { driver in
            let id = driver.engine.makeConsumerID()
            let consumer = Consumer<Element>(
                id: id, channel: nil, policy: policy, gate: self.flowGate,
                ceiling: ConsumerRegistry.observerCeiling(policy), release: self.releaser(id)
            ) { _ in 0 }
            if let first { _ = consumer.deliver(contentsOf: CollectionOfOne(first(driver))) }
            if !driver.registry.add(observer(consumer), id: id) { consumer.finish() }
            return consumer
        }
    }
}
