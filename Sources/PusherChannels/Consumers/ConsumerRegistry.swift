// SPDX-License-Identifier: MIT

import PusherCore

/// Every consumer of one client, of every kind: channel events (by the engine's consumer number),
/// presence changes, and the notifications (connection states, errors, subscription outcomes and
/// counts, decryption failures, watchlist changes, user states). Each one is a ``ConsumerBuffer``,
/// registered when its iterator is made and removed when its iterator goes.
///
/// A value inside the client's engine lock (see ``ClientDriver``): registering, publishing and
/// removing happen under that one lock, so a consumer sees everything published after it was made.
struct ConsumerRegistry: Sendable {
    /// A notification consumer, by kind; `channel` narrows the ones that take one.
    enum Observer: Sendable {
        case states(ConsumerBuffer<ConnectionState>)
        case statesAtEndpoints(ConsumerBuffer<EndpointConnectionState>)
        case errors(ConsumerBuffer<PusherError>)
        case subscriptions(channel: String?, ConsumerBuffer<SubscriptionEvent>)
        case counts(channel: String, ConsumerBuffer<Int>)
        case decryptionFailures(channel: String?, ConsumerBuffer<DecryptionFailure>)
        case watchlist(ConsumerBuffer<WatchlistEvent>)
        case user(ConsumerBuffer<UserState>)

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

    /// A consumer being registered: its buffer, by element.
    enum NewConsumer: Sendable {
        case events(ConsumerBuffer<ChannelEvent>)
        case presence(ConsumerBuffer<PresenceChange>)

        func finish(throwing error: PusherError? = nil) {
            switch self {
            case .events(let buffer): buffer.finish(throwing: error)
            case .presence(let buffer): buffer.finish(throwing: error)
            }
        }
    }

    /// Event consumers, by the engine's number.
    private(set) var events: [ConsumerID: EventConsumer] = [:]
    /// Presence consumers, by the engine's number.
    private(set) var presence: [ConsumerID: ConsumerBuffer<PresenceChange>] = [:]
    private(set) var observers: [Int: Observer] = [:]
    private var lastObserverID = 0
    /// Set when the client has finished: consumers made later are finished at once.
    private(set) var isClosed = false

    /// How many notifications an observer keeps when it falls behind (the newest ones).
    static func observerPolicy(limit: Int) -> BufferingPolicy {
        BufferingPolicy(limit: limit, whenFull: .dropOldest, byteLimit: .max)
    }

    // MARK: Adding and removing

    mutating func add(_ consumer: EventConsumer) {
        self.events[consumer.id] = consumer
    }

    mutating func add(_ buffer: ConsumerBuffer<PresenceChange>, id: ConsumerID) {
        self.presence[id] = buffer
    }

    /// Registers a notification consumer; nil once the client has finished.
    mutating func add(_ observer: Observer) -> Int? {
        guard !self.isClosed else { return nil }
        self.lastObserverID += 1
        self.observers[self.lastObserverID] = observer
        return self.lastObserverID
    }

    /// Removes an event or presence consumer and finishes its buffer (with `error` if given).
    /// Returns the event consumer, whose staged events may still be handed over.
    @discardableResult
    mutating func removeConsumer(_ id: ConsumerID, finishing error: PusherError? = nil) -> EventConsumer? {
        self.presence.removeValue(forKey: id)?.finish(throwing: error)
        return self.events.removeValue(forKey: id)
    }

    mutating func removeObserver(_ id: Int) {
        self.observers.removeValue(forKey: id)?.finish()
    }

    /// Finishes every notification consumer; later ones are finished at once.
    mutating func close() {
        self.isClosed = true
        for observer in self.observers.values { observer.finish() }
        self.observers = [:]
    }

    // MARK: Publishing

    /// Delivers `element` to the observers `select` picks, one lock and one wake each.
    private func publish<Element: Sendable>(_ element: Element, _ select: (Observer) -> ConsumerBuffer<Element>?) {
        for observer in self.observers.values {
            guard let buffer = select(observer) else { continue }
            _ = buffer.deliver(contentsOf: CollectionOfOne(element))
        }
    }

    func publish(_ state: ConnectionState, endpoint: PusherEndpoint) {
        self.publish(state) { if case .states(let buffer) = $0 { buffer } else { nil } }
        let change = EndpointConnectionState(state: state, endpoint: endpoint)
        self.publish(change) { if case .statesAtEndpoints(let buffer) = $0 { buffer } else { nil } }
    }

    func publish(_ state: UserState) {
        self.publish(state) { if case .user(let buffer) = $0 { buffer } else { nil } }
    }

    func report(_ error: PusherError) {
        self.publish(error) { if case .errors(let buffer) = $0 { buffer } else { nil } }
    }

    func report(_ failure: DecryptionFailure) {
        self.publish(failure) { observer in
            guard case .decryptionFailures(let channel, let buffer) = observer,
                channel == nil || channel == failure.channel
            else { return nil }
            return buffer
        }
    }

    func notify(_ event: WatchlistEvent) {
        self.publish(event) { if case .watchlist(let buffer) = $0 { buffer } else { nil } }
    }

    func notify(_ event: SubscriptionEvent) {
        self.publish(event) { observer in
            guard case .subscriptions(let channel, let buffer) = observer, channel == nil || channel == event.channel
            else { return nil }
            return buffer
        }
    }

    func notifyCount(_ count: Int, channel: String) {
        self.publish(count) { if case .counts(channel, let buffer) = $0 { buffer } else { nil } }
    }
}
