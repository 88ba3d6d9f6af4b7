// SPDX-License-Identifier: MIT

import PusherCore

/// The iteration of one consumer, shared by ``ChannelEventSequence`` and ``PresenceChangeSequence``:
/// the consumer is registered when the iterator is made, and the iterator takes from its buffer.
/// Dropping the iterator (leaving the loop) drops the token, which removes the consumer. Generic,
/// but only used with concrete elements inside this module, so it is specialised.
struct ConsumerIterator<Element: BufferedElement> {
    /// Registers a consumer at once (synchronously) and returns its buffer and the token that
    /// removes it.
    typealias Register = @Sendable () -> (ConsumerBuffer<Element>, ListenerToken)

    private var buffer: ConsumerBuffer<Element>?
    private var token: ListenerToken?
    /// Elements taken from the buffer in one run and not returned yet (from `pendingIndex` on);
    /// each is moved out as it is returned, so that this array keeps no reference to it.
    private var pending: [Element?] = []
    private var pendingIndex = 0
    /// At most this many elements are taken from the buffer at once.
    private static var run: Int { 128 }

    init(register: Register) {
        let (buffer, token) = register()
        self.buffer = buffer
        self.token = token
    }

    /// Takes a buffered element without suspending; suspends only when none is buffered.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        if self.pendingIndex < self.pending.count {
            defer { self.pendingIndex += 1 }
            return self.pending[self.pendingIndex].take()
        }
        guard let buffer = self.buffer else { return nil }
        // Buffered elements are taken a run at a time, under one lock, without any async call.
        self.pending.removeAll(keepingCapacity: true)
        self.pendingIndex = 0
        if buffer.takeBuffered(upTo: Self.run, into: &self.pending) > 0 {
            self.pendingIndex = 1
            return self.pending[0].take()
        }
        do {
            if let element = try await buffer.next(isolation: actor) { return element }
        } catch {
            self.finish()
            throw error
        }
        // The end, or the task was cancelled: releasing the token unsubscribes.
        self.finish()
        return nil
    }

    /// Unsubscribes now: a copy of this iterator that is still alive must not keep the consumer.
    private mutating func finish() {
        self.pending = []
        self.pendingIndex = 0
        self.buffer = nil
        self.token?.release()
        self.token = nil
    }
}
