// SPDX-License-Identifier: MIT

import PusherCore

/// Every consumer of one client, of every kind: channel events (by the engine's consumer number),
/// presence changes, and the notifications (connection states, errors, subscription outcomes and
/// counts, decryption failures, watchlist changes, user states). Each one is a ``Consumer``,
/// registered when its iterator is made and removed when its iterator goes, under its number: one
/// number space for every kind (the engine's, see `ClientEngine.makeConsumerID()`).
///
/// A value inside the client's engine lock (see ``ClientDriver``): registering, publishing and
/// removing happen under that one lock, so a consumer sees everything published after it was made.
struct ConsumerRegistry: Sendable {
    /// A notification consumer, by kind; `channel` narrows the ones that take one.
    enum Observer: Sendable {
        case states(Consumer<ConnectionState>)
        case statesAtEndpoints(Consumer<EndpointConnectionState>)
        case errors(Consumer<PusherError>)
        case subscriptions(channel: String?, Consumer<SubscriptionEvent>)
        case counts(channel: String, Consumer<Int>)
        case decryptionFailures(channel: String?, Consumer<DecryptionFailure>)
        case watchlist(Consumer<WatchlistEvent>)
        case user(Consumer<UserState>)

        func finish() {
            switch self {
            case .states(let buffer): buffer.finish()
            case .statesAtEndpoints(let buffer): buffer.finish()
            case .errors(let buffer): buffer.finish()
            case .subscriptions(_, let buffer): buffer.finish()
            case .counts(_, let buffer): buffer.finish()
            case .decryptionFailures(_, let buffer): buffer.finish()
            case .watchlist(let buffer): buffer.finish()
            case .user(let buffer): buffer.finish()
            }
        }
    }

    /// A consumer being registered with the engine, by element.
    enum NewConsumer: Sendable {
        case events(Consumer<ChannelEvent>)
        case presence(Consumer<PresenceChange>)

        var id: ConsumerID {
            switch self {
            case .events(let consumer): consumer.id
            case .presence(let consumer): consumer.id
            }
        }

        func finish(throwing error: PusherError? = nil) {
            switch self {
            case .events(let buffer): buffer.finish(throwing: error)
            case .presence(let buffer): buffer.finish(throwing: error)
            }
        }
    }

    /// Event consumers, by number.
    private(set) var events: [ConsumerID: Consumer<ChannelEvent>] = [:]
    /// Presence consumers, by number.
    private(set) var presence: [ConsumerID: Consumer<PresenceChange>] = [:]
    /// Notification consumers, by number.
    private(set) var observers: [ConsumerID: Observer] = [:]
    /// Set when the client has finished: consumers made later are finished at once.
    private(set) var isClosed = false

    /// How many notifications a notification consumer holds at most, under `pauseReading` (the
    /// default of ``PusherClientConfiguration/notificationBuffering``): reading from the socket pauses at
    /// the policy's limit; the headroom above it takes the rest of the read that crossed it (one
    /// read of many small messages can carry thousands of notifications) and the notifications that
    /// do not come from the socket (connection states and errors of reconnection attempts while
    /// reading is paused). Past it the oldest is dropped, so memory stays bounded.
    static func observerCeiling(_ policy: BufferingPolicy) -> Int {
        policy.limit + max(policy.limit, Self.observerHeadroom)
    }

    /// The least headroom of a notification consumer above its limit (see ``observerCeiling(_:)``).
    static let observerHeadroom = 65_536

    // MARK: Adding and removing

    /// Registers an event or presence consumer under its number.
    mutating func add(_ consumer: NewConsumer) {
        switch consumer {
        case .events(let consumer): self.events[consumer.id] = consumer
        case .presence(let consumer): self.presence[consumer.id] = consumer
        }
    }

    /// Registers a notification consumer under `id`; false once the client has finished.
    mutating func add(_ observer: Observer, id: ConsumerID) -> Bool {
        guard !self.isClosed else { return false }
        self.observers[id] = observer
        return true
    }

    /// Removes an event or presence consumer and finishes its buffer (with `error` if given).
    /// Returns the event consumer, whose staged events may still be handed over.
    @discardableResult
    mutating func removeConsumer(_ id: ConsumerID, finishing error: PusherError? = nil) -> Consumer<ChannelEvent>? {
        self.presence.removeValue(forKey: id)?.finish(throwing: error)
        return self.events.removeValue(forKey: id)
    }

    /// Removes a notification consumer and finishes it; false when `id` is none.
    mutating func removeObserver(_ id: ConsumerID) -> Bool {
        guard let observer = self.observers.removeValue(forKey: id) else { return false }
        observer.finish()
        return true
    }

    /// Finishes every notification consumer; later ones are finished at once.
    mutating func close() {
        self.isClosed = true
        for observer in self.observers.values { observer.finish() }
        self.observers = [:]
    }

    // MARK: Publishing

    /// Delivers `element` to the observers `select` picks, one lock and one wake each. Returns what
    /// their policies did; observers that ended (or just failed, under `fail`) are forgotten.
    private mutating func publish<Element: Sendable>(
        _ element: Element, _ select: (Observer) -> Consumer<Element>?
    ) -> DeliveryTally {
        var tally = DeliveryTally()
        var gone: [ConsumerID] = []
        for (id, observer) in self.observers {
            guard let buffer = select(observer) else { continue }
            if !buffer.deliver(contentsOf: CollectionOfOne(element), tally: &tally) { gone.append(id) }
        }
        for id in gone { self.observers.removeValue(forKey: id) }
        return tally
    }

    mutating func publish(_ state: ConnectionState, endpoint: PusherEndpoint) -> DeliveryTally {
        var tally = self.publish(state) { if case .states(let buffer) = $0 { buffer } else { nil } }
        let change = EndpointConnectionState(state: state, endpoint: endpoint)
        tally += self.publish(change) { if case .statesAtEndpoints(let buffer) = $0 { buffer } else { nil } }
        return tally
    }

    mutating func publish(_ state: UserState) -> DeliveryTally {
        self.publish(state) { if case .user(let buffer) = $0 { buffer } else { nil } }
    }

    mutating func report(_ error: PusherError) -> DeliveryTally {
        self.publish(error) { if case .errors(let buffer) = $0 { buffer } else { nil } }
    }

    mutating func report(_ failure: DecryptionFailure) -> DeliveryTally {
        self.publish(failure) { observer in
            guard case .decryptionFailures(let channel, let buffer) = observer,
                channel == nil || channel == failure.channel
            else { return nil }
            return buffer
        }
    }

    mutating func notify(_ event: WatchlistEvent) -> DeliveryTally {
        self.publish(event) { if case .watchlist(let buffer) = $0 { buffer } else { nil } }
    }

    mutating func notify(_ event: SubscriptionEvent) -> DeliveryTally {
        self.publish(event) { observer in
            guard case .subscriptions(let channel, let buffer) = observer, channel == nil || channel == event.channel
            else { return nil }
            return buffer
        }
    }

    mutating func notifyCount(_ count: Int, channel: String) -> DeliveryTally {
        self.publish(count) { if case .counts(channel, let buffer) = $0 { buffer } else { nil } }
    }
}
