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
        case error(AsyncStream<PusherError>.Continuation)
        case subscription(channel: String?, AsyncStream<SubscriptionEvent>.Continuation)
        case count(channel: String, AsyncStream<Int>.Continuation)
        case decryption(channel: String?, AsyncStream<DecryptionFailure>.Continuation)
        case watchlist(AsyncStream<WatchlistEvent>.Continuation)
        case user(AsyncStream<UserState>.Continuation)

        func finish() {
            switch self {
            case .state(let continuation): continuation.finish()
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
        var user: UserState = .signedOut
        var isFinished = false
        var nextID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = NIOLockedValueBox(State())

    func observeStates() -> (AsyncStream<ConnectionState>, ListenerToken) {
        self.observe(limit: 64, Observer.state) { $0.current }
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

    /// The observers `select` picks, read under the lock and yielded to outside it.
    private func targets<Element>(_ select: (Observer) -> AsyncStream<Element>.Continuation?) -> [AsyncStream<Element>.Continuation] {
        self.state.withLockedValue { state in state.observers.values.compactMap(select) }
    }

    func notifyCount(_ count: Int, channel: String) {
        let targets = self.targets { observer -> AsyncStream<Int>.Continuation? in
            if case .count(channel, let continuation) = observer { continuation } else { nil }
        }
        for continuation in targets { continuation.yield(count) }
    }

    func publish(_ connectionState: ConnectionState) {
        let targets = self.state.withLockedValue { state in
            state.current = connectionState
            return state.observers.values.compactMap { if case .state(let continuation) = $0 { continuation } else { nil } }
        }
        for continuation in targets { continuation.yield(connectionState) }
    }

    /// Publishes a user state; a repeat of the current one is not published again.
    func publish(_ userState: UserState) {
        let targets = self.state.withLockedValue { state -> [AsyncStream<UserState>.Continuation] in
            guard state.user != userState else { return [] }
            state.user = userState
            return state.observers.values.compactMap { if case .user(let continuation) = $0 { continuation } else { nil } }
        }
        for continuation in targets { continuation.yield(userState) }
    }

    func report(_ error: PusherError) {
        let targets = self.targets { observer -> AsyncStream<PusherError>.Continuation? in
            if case .error(let continuation) = observer { continuation } else { nil }
        }
        for continuation in targets { continuation.yield(error) }
    }

    func report(_ failure: DecryptionFailure) {
        let targets = self.targets { observer -> AsyncStream<DecryptionFailure>.Continuation? in
            guard case .decryption(let channel, let continuation) = observer, channel == nil || channel == failure.channel else { return nil }
            return continuation
        }
        for continuation in targets { continuation.yield(failure) }
    }

    func notify(_ event: WatchlistEvent) {
        let targets = self.targets { observer -> AsyncStream<WatchlistEvent>.Continuation? in
            if case .watchlist(let continuation) = observer { continuation } else { nil }
        }
        for continuation in targets { continuation.yield(event) }
    }

    func notify(_ event: SubscriptionEvent) {
        let targets = self.targets { observer -> AsyncStream<SubscriptionEvent>.Continuation? in
            guard case .subscription(let channel, let continuation) = observer, channel == nil || channel == event.channel else { return nil }
            return continuation
        }
        for continuation in targets { continuation.yield(event) }
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
