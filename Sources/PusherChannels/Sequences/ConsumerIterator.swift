// SPDX-License-Identifier: MIT

import PusherCore

/// The iteration of one consumer, shared by ``ChannelEventSequence`` and ``PresenceChangeSequence``:
/// registers on the first `next()`, then takes from the consumer's buffer. Generic, but only used
/// with concrete elements inside this module, so it is specialised.
struct ConsumerIterator<Element: BufferedElement> {
    typealias Register = @Sendable () async throws(PusherError) -> (ConsumerBuffer<Element>, ListenerToken)?

    private enum State {
        case notStarted(Register)
        case iterating(ConsumerBuffer<Element>, ListenerToken)
        case finished
    }

    private var state: State

    init(register: @escaping Register) {
        self.state = .notStarted(register)
    }

    /// Takes a buffered element without suspending; suspends only when none is buffered.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        let buffer: ConsumerBuffer<Element>
        switch self.state {
        case .finished:
            return nil
        case .iterating(let current, _):
            buffer = current
        case .notStarted(let register):
            guard !Task.isCancelled else {
                self.state = .finished
                return nil
            }
            do {
                guard let (newBuffer, token) = try await register() else {
                    self.state = .finished
                    return nil
                }
                buffer = newBuffer
                self.state = .iterating(newBuffer, token)
            } catch {
                self.state = .finished
                throw error
            }
        }
        do {
            if let element = try await buffer.next(isolation: actor) { return element }
            // The end, or the task was cancelled: dropping the token unsubscribes.
            self.state = .finished
            return nil
        } catch {
            self.state = .finished
            throw error
        }
    }
}
