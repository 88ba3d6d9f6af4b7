// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

/// One run of `listen` on a running client: every stream of the client has a task of its own; the
/// first task that decides how the run ends (interrupted, `--count` reached, output closed,
/// connection failed, every channel failed) ends it.
///
/// Events are written by the task that consumes them, waiting while standard output is behind: what
/// is held in memory is bounded by the consumers' buffering policy (`--buffer-limit`,
/// `--when-full`) plus the output writer's buffer.
struct ListenSession: Sendable {
    let client: PusherClient
    let output: OutputWriter
    let signals: SignalWatcher
    /// The channels to follow, already checked (valid names, authorizable).
    let channels: [String]
    let eventName: String?
    let count: Int?
    let quiet: Bool
    let signIn: Bool
    /// The client's clock: a consumer that fell behind waits on it before subscribing again.
    let clock: ContinuousClock
    /// The client's backoff, which those waits follow (``ResubscribeBackoff``).
    let backoff: Backoff

    let counter = EventCounter()
    /// Channels whose subscription failed; not subscribed again after a `consumerTooSlow`.
    let failedChannels = NIOLockedValueBox(Set<String>())

    func run() async throws -> ListenOutcome {
        try await withThrowingTaskGroup(of: ListenOutcome.self) { group in
            // Made before any task runs, so that nothing published from now on is missed.
            let states = self.client.connectionStatesAtEndpoints.makeAsyncIterator()
            let errors = self.client.errors.makeAsyncIterator()
            let subscriptions = self.client.subscriptionEvents().makeAsyncIterator()
            group.addTask {
                var states = states
                // With more than one --host, each attempt names its endpoint.
                let endpoints = 1 + self.client.configuration.fallbackEndpoints.count
                // The endpoint comes with the state: by the time a line is written, a later attempt may
                // have gone elsewhere.
                while let next = await states.next() {
                    let state = next.state
                    if case .connecting = state, endpoints > 1, let endpoint = next.endpoint {
                        Output.error("state: \(state) to \(HostArgument.describe(endpoint))")
                    } else {
                        Output.error("state: \(state)")
                    }
                    if case .failed(let error) = state { return .connectionFailed(error) }
                }
                return .ended
            }
            group.addTask {
                var errors = errors
                while let error = await errors.next() { Output.error("error: \(error)") }
                return .ended
            }
            group.addTask {
                var subscriptions = subscriptions
                while let event = await subscriptions.next() {
                    if case .failed(let channel, _) = event {
                        _ = self.failedChannels.withLockedValue { $0.insert(channel) }
                    }
                }
                return .ended
            }
            group.addTask {
                for await failure in self.client.decryptionFailures() { Output.error("decryption failure: \(failure)") }
                return .ended
            }
            group.addTask { await self.signals.first() == nil ? .ended : .interrupted }
            group.addTask {
                await self.output.closed()
                return self.output.isClosed ? .outputClosed : .ended
            }
            group.addTask {
                // Read while lines are sent: a full client-event queue holds the reader back.
                for await line in StandardInput.lines() {
                    switch line {
                    case .text(let text):
                        await ClientEventLine.send(
                            text, with: self.client, channels: self.channels,
                            failedChannels: { self.failedChannels.withLockedValue { $0 } }, clock: self.clock)
                    case .tooLong(let bytes):
                        Output.error(
                            "client event: a line of \(bytes) bytes is longer than \(StandardInput.maximumLineBytes) bytes; skipped"
                        )
                    case .notUTF8(let bytes):
                        Output.error("client event: a line of \(bytes) bytes is not UTF-8 text; skipped")
                    }
                }
                return .ended
            }
            for channel in self.channels where ChannelName.kind(of: channel) == .presence {
                group.addTask { await self.consumePresence(on: channel) }
            }
            if self.signIn {
                let (registered, ready) = AsyncStream.makeStream(of: Never.self)
                group.addTask { await self.consumeUserEvents(registered: ready) }
                group.addTask {
                    for await state in self.client.userStates { Output.error("user: \(state)") }
                    return .ended
                }
                group.addTask {
                    for await event in self.client.watchlistEvents {
                        guard await self.output.write(ListenJSON.watchlist(event)) else { return .outputClosed }
                    }
                    return .ended
                }
                // The user's events consumer exists: nothing the server sends after sign-in is missed.
                for await _ in registered {}
                try await self.client.signIn()
            }
            if !self.channels.isEmpty {
                group.addTask { await self.consumeChannels() }
            }
            var outcome = ListenOutcome.ended
            while let next = try await group.next() {
                if case .ended = next { continue }
                outcome = next
                break
            }
            group.cancelAll()
            return outcome
        }
    }

    /// Prints `event` (unless `--quiet`) and counts it; returns how the run ends, if it does.
    func emit(_ event: ChannelEvent) async -> ListenOutcome? {
        // With --quiet nothing waits: no suspension point per event.
        if self.quiet { return self.countQuietly() }
        let (takes, isLast) = self.record()
        guard takes else { return .countReached }
        if !(await self.output.write(ListenJSON.event(event))) { return .outputClosed }
        return isLast ? .countReached : nil
    }

    /// Counts an event that is not printed; returns how the run ends, if it does.
    func countQuietly() -> ListenOutcome? {
        let (takes, isLast) = self.record()
        return !takes || isLast ? .countReached : nil
    }

    /// Counts an event unless `--count` was reached; returns whether it counts and is the last one.
    private func record() -> (takes: Bool, isLast: Bool) {
        self.counter.record(limit: self.count)
    }

    /// Reports that a consumer fell behind; it is then started again.
    static func reportTooSlow(_ error: PusherError, consumer: String) {
        Output.error("error: \(error) — \(consumer) fell behind standard output; events were lost; subscribing again")
    }
}
