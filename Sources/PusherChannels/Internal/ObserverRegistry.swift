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
    private struct Observer<Element: Sendable>: Sendable {
        var channel: String?
        var continuation: AsyncStream<Element>.Continuation
    }

    private struct State: Sendable {
        var current: ConnectionState = .initialized
        var isFinished = false
        var nextID = 0
        var states: [Int: Observer<ConnectionState>] = [:]
        var errors: [Int: Observer<PusherError>] = [:]
        var subscriptions: [Int: Observer<SubscriptionEvent>] = [:]
        var counts: [Int: Observer<Int>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    func observeStates() -> (AsyncStream<ConnectionState>, ListenerToken) {
        self.observe(\.states, limit: 64) { $0.current }
    }

    func observeErrors() -> (AsyncStream<PusherError>, ListenerToken) {
        self.observe(\.errors, limit: 1024)
    }

    func observeSubscriptions(channel: String?) -> (AsyncStream<SubscriptionEvent>, ListenerToken) {
        self.observe(\.subscriptions, channel: channel, limit: 1024)
    }

    func observeSubscriptionCounts(channel: String) -> (AsyncStream<Int>, ListenerToken) {
        self.observe(\.counts, channel: channel, limit: 64)
    }

    /// Registers a new observer in `observers` (unless the client has finished), keeping the newest
    /// `limit` elements; `first` gives an element to yield at once (the current state).
    private func observe<Element: Sendable>(
        _ observers: WritableKeyPath<State, [Int: Observer<Element>]>,
        channel: String? = nil,
        limit: Int,
        first: ((State) -> Element)? = nil
    ) -> (AsyncStream<Element>, ListenerToken) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let (id, initial, isFinished) = self.state.withLockedValue { state -> (Int, Element?, Bool) in
            state.nextID += 1
            if !state.isFinished { state[keyPath: observers][state.nextID] = Observer(channel: channel, continuation: continuation) }
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

    func notifyCount(_ count: Int, channel: String) {
        let targets = self.state.withLockedValue { state in
            state.counts.values.filter { $0.channel == channel }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(count) }
    }

    func publish(_ connectionState: ConnectionState) {
        let targets = self.state.withLockedValue { state in
            state.current = connectionState
            return state.states.values.map(\.continuation)
        }
        for continuation in targets { continuation.yield(connectionState) }
    }

    func report(_ error: PusherError) {
        let targets = self.state.withLockedValue { $0.errors.values.map(\.continuation) }
        for continuation in targets { continuation.yield(error) }
    }

    func notify(_ event: SubscriptionEvent) {
        let targets = self.state.withLockedValue { state in
            state.subscriptions.values.filter { $0.channel == nil || $0.channel == event.channel }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(event) }
    }

    private func remove(_ id: Int) {
        let removed = self.state.withLockedValue { state in
            (state.states.removeValue(forKey: id)?.continuation, state.errors.removeValue(forKey: id)?.continuation,
             state.subscriptions.removeValue(forKey: id)?.continuation, state.counts.removeValue(forKey: id)?.continuation)
        }
        removed.0?.finish()
        removed.1?.finish()
        removed.2?.finish()
        removed.3?.finish()
    }

    /// Finishes every sequence; later registrations get finished sequences.
    func finishAll() {
        let (states, errors, subscriptions, counts) = self.state.withLockedValue { state in
            state.isFinished = true
            defer {
                state.states = [:]
                state.errors = [:]
                state.subscriptions = [:]
                state.counts = [:]
            }
            return (
                state.states.values.map(\.continuation), state.errors.values.map(\.continuation),
                state.subscriptions.values.map(\.continuation), state.counts.values.map(\.continuation)
            )
        }
        for continuation in states { continuation.finish() }
        for continuation in errors { continuation.finish() }
        for continuation in subscriptions { continuation.finish() }
        for continuation in counts { continuation.finish() }
    }
}
