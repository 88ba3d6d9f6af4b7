// SPDX-License-Identifier: MIT

/// A sequence of client notifications: connection states, errors, subscription outcomes.
///
/// Each iterator is its own consumer with its own buffer, registered when the iterator is made (a
/// `for await` loop makes it at once), so nothing published after that is missed. When it falls
/// behind, ``PusherClientConfiguration/notificationBuffering`` applies: by default nothing is lost, the
/// client stops reading from the socket until it catches up. It never throws, and finishes when
/// the client stops, the iterating task is cancelled, or (policy `fail`) it fell too far behind.
public struct PusherSequence<Element: Sendable>: AsyncSequence, Sendable {
    let register: ConsumerIterator<Element>.Register

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: ConsumerIterator(register: self.register))
    }

    /// Iterates one consumer. It takes buffered notifications a run at a time, under one lock.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: ConsumerIterator<Element>

        public mutating func next() async -> Element? {
            await self.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            // A cancelled task's loop ends at once, even while notifications keep coming (the rest
            // of its run goes with the consumer).
            if Task.isCancelled {
                self.base.finish()
                return nil
            }
            // A notification buffer that failed (policy `fail`) ends the loop like its end.
            return try? await self.base.next(isolation: actor)
        }

        /// How many times the iterator took from its consumer's buffer (for the package's tests).
        package var takeCount: Int { self.base.consumer?.takeCount ?? 0 }
    }
}

@available(*, unavailable)
extension PusherSequence.AsyncIterator: Sendable {}
