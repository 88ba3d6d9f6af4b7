// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// The consumers of the client's notifications (connection states, errors, subscription outcomes).
///
/// Registration happens synchronously when an iterator is made, so a consumer sees everything
/// published after that point, with no race against its first `next()`. The actor publishes; a lock
/// guards the sets. Continuations are yielded to and finished outside the lock, because finishing
/// one runs its termination handler, which comes back here to remove it.
final class ObserverRegistry: Sendable {
    /// One registered consumer, by kind; `channel` narrows the ones that take one.
    private enum Observer: Sendable {
        case state(AsyncStream<ConnectionState>.Continuation)
        case stateAtEndpoint(AsyncStream<EndpointConnectionState>.Continuation)
        case error(AsyncStream<PusherError>.Continuation)
        case subscription(channel: String?, AsyncStream<SubscriptionEvent>.Continuation)
        case count(channel: String, AsyncStream<Int>.Continuation)
        case decryption(channel: String?, AsyncStream<DecryptionFailure>.Continuation)
        case watchlist(AsyncStream<WatchlistEvent>.Continuation)
        case user(AsyncStream<UserState>.Continuation)

        func finish() {
            switch self {
            case .state(let continuation): continuation.finish()
            case .stateAtEndpoint(let continuation): continuation.finish()
            case .error(let continuation): continuation.finish()
            case .subscription(_, let continuation): continuation.finish()
            case .count(_, let continuation): continuation.finish()
            case .decryption(_, let continuation): continuation.finish()
            case .watchlist(let continuation): continuation.finish()
            case .user(let continuation): continuation.finish()
            }
        }
    }

    private struct State: Sendable {
        var current: ConnectionState = .initialized
        /// The endpoint of the latest attempt when `current` was published; nil before any state.
        var currentEndpoint: PusherEndpoint?
        var user: UserState = .signedOut
        var isFinished = false
        var nextID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = NIOLockedValueBox(State())

    func observeStates() -> (AsyncStream<ConnectionState>, ListenerToken) {
        self.observe(limit: 64, Observer.state) { $0.current }
    }

    func observeStatesAtEndpoints() -> (AsyncStream<EndpointConnectionState>, ListenerToken) {
        self.observe(limit: 64, Observer.stateAtEndpoint) {
            EndpointConnectionState(state: $0.current, endpoint: $0.currentEndpoint)
        }
    }

    func observeErrors() -> (AsyncStream<PusherError>, ListenerToken) {
        self.observe(limit: 1024, Observer.error)
    }

    func observeSubscriptions(channel: String?) -> (AsyncStream<SubscriptionEvent>, ListenerToken) {
        self.observe(limit: 1024) { Observer.subscription(channel: channel, $0) }
    }

    func observeSubscriptionCounts(channel: String) -> (AsyncStream<Int>, ListenerToken) {
        self.observe(limit: 64) { Observer.count(channel: channel, $0) }
    }

    func observeDecryptionFailures(channel: String?) -> (AsyncStream<DecryptionFailure>, ListenerToken) {
        self.observe(limit: 1024) { Observer.decryption(channel: channel, $0) }
    }

    func observeWatchlist() -> (AsyncStream<WatchlistEvent>, ListenerToken) {
        self.observe(limit: 1024, Observer.watchlist)
    }

    func observeUser() -> (AsyncStream<UserState>, ListenerToken) {
        self.observe(limit: 64, Observer.user) { $0.user }
    }

    /// Registers a new observer (unless the client has finished), keeping the newest `limit`
    /// elements; `first` gives an element to yield at once (the current state).
    private func observe<Element: Sendable>(
        limit: Int,
        _ makeObserver: (AsyncStream<Element>.Continuation) -> Observer,
        first: ((State) -> Element)? = nil
    ) -> (AsyncStream<Element>, ListenerToken) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let observer = makeObserver(continuation)
        let (id, initial, isFinished) = self.state.withLockedValue { state -> (Int, Element?, Bool) in
            state.nextID += 1
            if !state.isFinished { state.observers[state.nextID] = observer }
            return (state.nextID, first?(state), state.isFinished)
        }
        if let initial { continuation.yield(initial) }
        if isFinished {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
        return (stream, ListenerToken { [weak self] in self?.remove(id) })
    }

    /// Yields `element` to the observers `select` picks: read under the lock, yielded to outside it.
    /// With `current`, the value is first stored there, and a repeat of the stored value is dropped
    /// when `skipsRepeats`.
    private func yield<Element: Sendable & Equatable>(
        _ element: Element,
        storingIn current: WritableKeyPath<State, Element>? = nil,
        skipsRepeats: Bool = false,
        _ select: (Observer) -> AsyncStream<Element>.Continuation?
    ) {
        let targets = self.state.withLockedValue { state -> [AsyncStream<Element>.Continuation] in
            if let current {
                if skipsRepeats && state[keyPath: current] == element { return [] }
                state[keyPath: current] = element
            }
            return state.observers.values.compactMap(select)
        }
        for continuation in targets { continuation.yield(element) }
    }

    func notifyCount(_ count: Int, channel: String) {
        self.yield(count) { if case .count(channel, let continuation) = $0 { continuation } else { nil } }
    }

    /// Publishes a connection state, and with it `endpoint` (the one of the latest attempt) to the
    /// observers of states at endpoints.
    func publish(_ connectionState: ConnectionState, endpoint: PusherEndpoint) {
        typealias Targets = (
            states: [AsyncStream<ConnectionState>.Continuation],
            atEndpoints: [AsyncStream<EndpointConnectionState>.Continuation]
        )
        // Both stored under one lock: a new observer's first element pairs the state with its endpoint.
        let targets = self.state.withLockedValue { state -> Targets in
            state.current = connectionState
            state.currentEndpoint = endpoint
            var targets: Targets = ([], [])
            for observer in state.observers.values {
                switch observer {
                case .state(let continuation): targets.states.append(continuation)
                case .stateAtEndpoint(let continuation): targets.atEndpoints.append(continuation)
                default: break
                }
            }
            return targets
        }
        for continuation in targets.states { continuation.yield(connectionState) }
        let change = EndpointConnectionState(state: connectionState, endpoint: endpoint)
        for continuation in targets.atEndpoints { continuation.yield(change) }
    }

    /// Publishes a user state; a repeat of the current one is not published again.
    func publish(_ userState: UserState) {
        self.yield(userState, storingIn: \.user, skipsRepeats: true) {
            if case .user(let continuation) = $0 { continuation } else { nil }
        }
    }

    func report(_ error: PusherError) {
        self.yield(error) { if case .error(let continuation) = $0 { continuation } else { nil } }
    }

    func report(_ failure: DecryptionFailure) {
        self.yield(failure) { observer in
            guard case .decryption(let channel, let continuation) = observer,
                channel == nil || channel == failure.channel
            else { return nil }
            return continuation
        }
    }

    func notify(_ event: WatchlistEvent) {
        self.yield(event) { if case .watchlist(let continuation) = $0 { continuation } else { nil } }
    }

    func notify(_ event: SubscriptionEvent) {
        self.yield(event) { observer in
            guard case .subscription(let channel, let continuation) = observer,
                channel == nil || channel == event.channel
            else { return nil }
            return continuation
        }
    }

    private func remove(_ id: Int) {
        let removed = self.state.withLockedValue { $0.observers.removeValue(forKey: id) }
        removed?.finish()
    }

    /// Finishes every sequence; later registrations get finished sequences.
    func finishAll() {
        let observers = self.state.withLockedValue { state in
            state.isFinished = true
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.finish() }
    }
}
