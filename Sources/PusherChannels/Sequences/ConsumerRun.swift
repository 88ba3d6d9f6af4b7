// SPDX-License-Identifier: MIT

/// The elements an iterator took from its consumer in one run, and how far it has returned them.
///
/// Returning the next one is inlined into the caller's loop: no async call, no executor check and
/// no lock per element; only an empty run calls into the iterator, which takes the next run or
/// waits. The run keeps every element it returned until the iterator asks for the next run: its
/// storage then goes back to the consumer as a whole (``takeSpent()``), so that the producer lets
/// go of its elements on its own thread, in bulk, and the iterator never frees one.
@usableFromInline
package struct ConsumerRun<Element> {
    @usableFromInline var elements: [Element] = []
    @usableFromInline var index = 0
    /// The bytes the run's elements count against the consumer's limits.
    var bytes = 0

    @usableFromInline package init() {}

    /// The next element of the run, or nil when the run is spent.
    @inlinable
    package mutating func next() -> Element? {
        guard self.index < self.elements.count else { return nil }
        defer { self.index &+= 1 }
        return self.elements[self.index]
    }

    /// Moves the run's storage out, with every element it holds (returned or not), and its bytes:
    /// the run is empty.
    mutating func takeSpent() -> (elements: [Element], bytes: Int) {
        var spent: [Element] = []
        swap(&spent, &self.elements)
        defer {
            self.index = 0
            self.bytes = 0
        }
        return (spent, self.bytes)
    }

    /// The elements not returned yet, in order: the run is spent.
    mutating func takeRest() -> [Element] {
        defer { self.index = self.elements.count }
        return Array(self.elements[self.index...])
    }
}
