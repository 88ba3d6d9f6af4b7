// SPDX-License-Identifier: MIT

import PusherCore

/// The client's side of one event consumer: its buffer, and the events of the batch being handled
/// that are not handed over yet (they go in one lock when the batch is done).
///
/// `@unchecked Sendable`: the class has mutable state (`staged`) and no lock of its own, but every
/// instance is created inside the client's engine lock, stored only in the ``ConsumerRegistry`` of
/// a ``ClientDriver`` (which is reachable only through that lock), and touched only by the driver
/// while it holds the lock. No reference to one ever leaves the lock.
final class EventConsumer: @unchecked Sendable {
    let id: ConsumerID
    let buffer: ConsumerBuffer<ChannelEvent>
    private var staged: [ChannelEvent] = []

    init(id: ConsumerID, buffer: ConsumerBuffer<ChannelEvent>) {
        self.id = id
        self.buffer = buffer
    }

    /// Stages `event` for the hand-over after the batch; the first one adds this consumer to `consumers`.
    func stage(_ event: ChannelEvent, into consumers: inout [EventConsumer]) {
        if self.staged.isEmpty { consumers.append(self) }
        self.staged.append(event)
    }

    /// Hands the staged events over, adding what the buffer took, dropped or failed to `tally`;
    /// false when the consumer is gone or was just failed.
    func flush(tally: inout DeliveryTally) -> Bool {
        guard !self.staged.isEmpty else { return true }
        let alive = self.buffer.deliver(contentsOf: self.staged, tally: &tally)
        self.staged.removeAll(keepingCapacity: true)
        return alive
    }
}
