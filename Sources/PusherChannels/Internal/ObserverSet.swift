// SPDX-License-Identifier: MIT

/// The consumers of one kind of notification, each with its own stream, optionally narrowed to one
/// channel.
struct ObserverSet<Element: Sendable> {
    private var observers: [Int: (channel: String?, continuation: AsyncStream<Element>.Continuation)] = [:]

    mutating func insert(id: Int, channel: String? = nil, _ continuation: AsyncStream<Element>.Continuation) {
        self.observers[id] = (channel, continuation)
    }

    /// Removes and finishes observer `id`; returns whether it was here.
    mutating func remove(_ id: Int) -> Bool {
        guard let observer = self.observers.removeValue(forKey: id) else { return false }
        observer.continuation.finish()
        return true
    }

    func yield(_ element: Element, channel: String? = nil) {
        for observer in self.observers.values where observer.channel == nil || observer.channel == channel {
            observer.continuation.yield(element)
        }
    }

    mutating func finishAll() {
        for observer in self.observers.values { observer.continuation.finish() }
        self.observers = [:]
    }
}
