// SPDX-License-Identifier: MIT

import PusherCore

/// The iteration of one consumer, shared by ``ChannelEventSequence`` and ``PresenceChangeSequence``:
/// the consumer is registered when the iterator is made, and the iterator takes from its buffer.
/// Dropping the iterator (leaving the loop) drops the token, which removes the consumer. Generic,
/// but only used with concrete elements inside this module, so it is specialised.
@usableFromInline
struct ConsumerIterator<Element: Sendable> {
    /// Registers a consumer at once (synchronously) and returns its buffer and the token that
    /// removes it.
    typealias Register = @Sendable () -> (ConsumerBuffer<Element>, ListenerToken)

    private var buffer: ConsumerBuffer<Element>?
    private var token: ListenerToken?
    /// Elements taken from the buffer in one run and not returned yet; the public iterators return
    /// them inline (see ``ConsumerRun``) and call ``next(isolation:)`` when it is spent.
    @usableFromInline var run = ConsumerRun<Element>()
    /// At most this many elements are taken from the buffer at once.
    private static var runLength: Int { 128 }

    init(register: Register) {
        let (buffer, token) = register()
        self.buffer = buffer
        self.token = token
    }

    /// The next element: from the run, else the first of a new run (taken without suspending),
    /// else the next one the buffer gets (suspending until then).
    mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        if let element = self.run.next() { return element }
        guard let buffer = self.buffer else { return nil }
        // A cancelled task's loop ends here, at the end of a run, even while elements keep coming
        // (the buffer alone would hand them out as long as it has any).
        if Task.isCancelled {
            self.finish()
            return nil
        }
        // Buffered elements are taken a run at a time, under one lock, without any async call.
        self.run.reset()
        if buffer.takeBuffered(upTo: Self.runLength, into: &self.run.elements) > 0 {
            return self.run.next()
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
        self.run = ConsumerRun()
        self.buffer = nil
        self.token?.release()
        self.token = nil
    }
}
