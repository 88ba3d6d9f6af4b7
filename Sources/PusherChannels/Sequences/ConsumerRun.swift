// SPDX-License-Identifier: MIT

/// The elements an iterator took from its consumer in one run and has not returned yet.
///
/// Returning the next one is inlined into the caller's loop: no async call, no executor check and
/// no lock per element; only an empty run calls into the iterator, which takes the next run or
/// waits. Each element is moved out as it is returned, so the run keeps no reference to it.
@usableFromInline
struct ConsumerRun<Element> {
    @usableFromInline var elements: [Element?] = []
    @usableFromInline var index = 0

    @usableFromInline init() {}

    /// The next element of the run, or nil when the run is spent.
    @inlinable
    mutating func next() -> Element? {
        guard self.index < self.elements.count else { return nil }
        defer { self.index &+= 1 }
        return self.elements[self.index].take()
    }

    /// Empties the run, keeping its storage, for the next one to be appended.
    mutating func reset() {
        self.elements.removeAll(keepingCapacity: true)
        self.index = 0
    }

    /// The elements not returned yet, in order, moved out: the run is spent.
    mutating func takeRest() -> [Element] {
        var rest: [Element] = []
        while let element = self.next() { rest.append(element) }
        return rest
    }
}
