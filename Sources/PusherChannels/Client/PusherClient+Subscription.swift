// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Subscribes to `channel` for the duration of `body`: the consumer is registered before `body`
    /// runs (and, by default, the server has confirmed the subscription), and removed when `body`
    /// returns or throws, which unsubscribes once the channel has no other consumer.
    ///
    /// ```swift
    /// try await client.withSubscription(to: "prices") { prices in
    ///     // Subscribed: whatever the server sends from now on is in `prices`.
    ///     for try await event in prices { … }
    /// }
    /// ```
    ///
    /// Events that arrive before the loop starts wait in the subscription's buffer (see
    /// ``BufferingPolicy``). The subscription is `Sendable`: a child task may iterate it while
    /// `body` does something else.
    ///
    /// - Parameters:
    ///   - channel: The channel's name; its prefix (`private-`, `presence-`, …) gives its kind.
    ///   - eventName: Only events with this name, or every event of the channel with `nil`.
    ///   - authorization: For a private or presence channel, an authorization you obtained yourself
    ///     for the current connection. See ``ProvidedAuthorization``.
    ///   - buffering: Overrides ``PusherClientConfiguration/buffering`` for this consumer.
    ///   - waitsForConfirmation: With true (the default), `body` runs only once the server has
    ///     confirmed the subscription (`pusher_internal:subscription_succeeded`); until then this
    ///     waits, connecting and reconnecting as ``run()`` does (and, under
    ///     ``PusherClientConfiguration/subscriptionRetry``, retrying refusals), for as long as the task is not
    ///     cancelled. With false, `body` runs at once. The confirmation comes over the connection:
    ///     called from a loop whose consumer is over its limits (``BufferingPolicy/WhenFull/pauseReading``),
    ///     it waits until that consumer catches up, which it cannot do while its loop waits here.
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: Runs with the subscription; its result is returned.
    /// - Throws: ``PusherError`` when the channel name is invalid, the kind needs what the client
    ///   lacks, the subscription fails for good (a refusal that is not retried) or the client stops before confirming (only while waiting
    ///   for the confirmation); `CancellationError` when the task is cancelled while waiting;
    ///   otherwise what `body` throws.
    @discardableResult
    public func withSubscription<Result>(
        to channel: String,
        named eventName: String? = nil,
        authorization: ProvidedAuthorization? = nil,
        buffering: BufferingPolicy? = nil,
        waitsForConfirmation: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ChannelSequence<ChannelEvent>) async throws -> Result
    ) async throws -> Result {
        // Observed before the consumer exists, so that no outcome can come in between.
        var outcomes = waitsForConfirmation ? self.subscriptionEvents(on: channel).makeAsyncIterator() : nil
        let policy = buffering ?? self.configuration.buffering
        let (consumer, registered) = self.register(
            .channel(channel, eventName: eventName, authorization: authorization),
            as: ConsumerRegistry.NewConsumer.events
        ) { self.makeConsumer($0, channel: channel, policy: policy) }
        defer {
            consumer.finish()
            consumer.release()
        }
        if var confirmations = outcomes {
            // Observed no longer than needed.
            outcomes = nil
            while try self.isConfirmed(channel, consumer: consumer, registered: registered) {
                switch await confirmations.next(isolation: isolation) {
                case .succeeded?:
                    continue
                case .failed(_, let error)?:
                    // Under a retry policy the consumer stays and the wait goes on.
                    if self.isRegistered(consumer.id) { continue }
                    throw error
                case nil:
                    try Task.checkCancellation()
                    throw PusherError(
                        .subscriptionFailed, "the client stopped before the server confirmed the subscription",
                        channel: channel)
                }
            }
        }
        return try await body(ChannelSequence(channel: channel, held: consumer))
    }

    /// The signed-in user's events for the duration of `body`: the consumer is registered before
    /// `body` runs, so events the server sends to the user once ``signIn()`` succeeds are not
    /// missed, and removed when `body` returns or throws. Does not sign in by itself.
    ///
    /// - Parameters:
    ///   - eventName: Only events with this name, or every event with `nil`.
    ///   - buffering: Overrides ``PusherClientConfiguration/buffering`` for this consumer.
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: Runs with the user's events; its result is returned.
    /// - Throws: What `body` throws.
    @discardableResult
    public func withUserEvents<Result>(
        named eventName: String? = nil,
        buffering: BufferingPolicy? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ChannelSequence<ChannelEvent>) async throws -> Result
    ) async throws -> Result {
        let consumer = self.registerEventConsumer(
            .user(eventName: eventName), channel: Self.userEventsConsumers,
            buffering: buffering ?? self.configuration.buffering)
        defer {
            consumer.finish()
            consumer.release()
        }
        return try await body(ChannelSequence(channel: nil, held: consumer))
    }

    /// Whether the server has yet to confirm `channel`, `consumer` having been registered (or not).
    ///
    /// - Throws: ``PusherError`` when the consumer was refused (an invalid name, a missing
    ///   authorizer: the error it ends with) or the client has stopped.
    private nonisolated func isConfirmed(
        _ channel: String, consumer: Consumer<ChannelEvent>, registered: Bool
    ) throws(PusherError) -> Bool {
        guard registered else {
            throw consumer.endError
                ?? PusherError(
                    .subscriptionFailed, "the client stopped before the server confirmed the subscription",
                    channel: channel)
        }
        return !self.withEngine { $0.engine.isSubscribed(channel) }
    }

    // MARK: Client events

    /// Sends a client event to the other subscribers of a private or presence channel.
    ///
    /// The channel must have a consumer (be iterated). Until its subscription succeeds, events wait
    /// in order (up to ``PusherClientConfiguration/clientEventQueueLimit``); then they go out no faster
    /// than ``PusherClientConfiguration/clientEventRateLimit`` per second, so the server's 4301 limit is
    /// not hit (a 4301 still arrives on ``errors``). `data` is sent as JSON when it is a JSON object
    /// or array, as a string otherwise. The server does not echo client events to their sender.
    ///
    /// - Throws: ``PusherError`` `clientEventRejected` for a name without `client-`, a public or
    ///   encrypted channel, a channel nobody iterates, or a full queue
    ///   (``PusherClientConfiguration/clientEventQueueLimit``).
    public func trigger(_ event: String, on channel: String, data: String) throws(PusherError) {
        try self.withEngine { driver throws(PusherError) in
            driver.perform(try driver.engine.trigger(event, on: channel, data: data, at: driver.clock.now))
        }
    }

    /// Sends a client event like ``trigger(_:on:data:)``, but while the client-event queue is full
    /// (``PusherClientConfiguration/clientEventQueueLimit`` events wait for the rate limit or for the
    /// channel's subscription) it waits for room instead of throwing: a producer that calls it in a
    /// loop is slowed down to the rate limit, and nothing it sends is dropped. While the client is
    /// disconnected (or before ``run()``), events wait for the subscription, so a full queue waits
    /// until the client is connected again. Callers waiting at once are not served in order.
    ///
    /// - Throws: ``PusherError`` `clientEventRejected` at once for an event that can never be sent
    ///   (see ``trigger(_:on:data:)``), also when the channel's last consumer leaves while it waits;
    ///   `CancellationError` when the task is cancelled while it waits.
    public func triggerWaitingForRoom(_ event: String, on channel: String, data: String) async throws {
        while true {
            let room = WaitableState(false)
            // Offered, and if the queue is full, waiting for room from the same look at the engine.
            let accepted = try self.withEngine { driver throws(PusherError) -> Bool in
                do throws(PusherError) {
                    driver.perform(try driver.engine.trigger(event, on: channel, data: data, at: driver.clock.now))
                    return true
                } catch {
                    guard driver.engine.clientEventWaitsForRoom(event, on: channel) else { throw error }
                    driver.clientEventRoomWaiters.append(room)
                    return false
                }
            }
            if accepted { return }
            let fired = await room.waitUntilFired()
            self.withEngine { $0.clientEventRoomWaiters.removeAll { $0 === room } }
            guard fired else { throw CancellationError() }
        }
    }
}
