// SPDX-License-Identifier: MIT

import PusherCore

/// The client's side of one event consumer: its buffer, and the events of the batch being handled
/// that are not handed over yet (they go in one lock when the batch is done). Owned by the client
/// actor, never shared.
final class EventConsumer {
    let id: Int
    let buffer: ConsumerBuffer<ChannelEvent>
    var staged: [ChannelEvent] = []

    init(id: Int, buffer: ConsumerBuffer<ChannelEvent>) {
        self.id = id
        self.buffer = buffer
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
