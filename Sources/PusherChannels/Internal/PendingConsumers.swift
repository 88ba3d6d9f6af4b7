// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// Consumers made outside the client actor (an iterator made, a scope entered) that the actor has
/// not handed to the engine yet. Adding is synchronous, so a consumer exists from the moment its
/// iterator does; the actor takes every pending one before it handles anything the consumer could
/// miss (a batch of frames, a command, a client event, the end of a run). After the client has
/// finished, new consumers are finished at once.
final class PendingConsumers: Sendable {
    /// A consumer's buffer, by element.
    enum Buffer: Sendable {
        case events(ConsumerBuffer<ChannelEvent>)
        case presence(ConsumerBuffer<PresenceChange>)

        func finish(throwing error: PusherError? = nil) {
            switch self {
            case .events(let buffer): buffer.finish(throwing: error)
            case .presence(let buffer): buffer.finish(throwing: error)
            }
        }
    }

    struct Registration: Sendable {
        var request: ClientEngine.ConsumerRequest
        var buffer: Buffer
        var ticket: ConsumerTicket
    }

    private struct State: Sendable {
        var pending: [Registration] = []
        var isClosed = false
    }

    private let state = NIOLockedValueBox(State())

    /// Queues `registration`. Returns whether the actor must be woken (the queue was empty), or nil
    /// when the client has finished (the buffer is then finished here).
    func add(_ registration: Registration) -> Bool? {
        let wake = self.state.withLockedValue { state -> Bool? in
            guard !state.isClosed else { return nil }
            state.pending.append(registration)
            return state.pending.count == 1
        }
        if wake == nil {
            registration.ticket.refused(nil)
            registration.buffer.finish()
        }
        return wake
    }

    /// Every pending registration, in the order they were made (one lock; no allocation when none).
    func take() -> [Registration] {
        self.state.withLockedValue { state in
            guard !state.pending.isEmpty else { return [] }
            defer { state.pending = [] }
            return state.pending
        }
    }

    /// Refuses later registrations and finishes the pending ones.
    func close() {
        let left = self.state.withLockedValue { state in
            state.isClosed = true
            defer { state.pending = [] }
            return state.pending
        }
        for registration in left {
            registration.ticket.refused(nil)
            registration.buffer.finish()
        }
    }
}
