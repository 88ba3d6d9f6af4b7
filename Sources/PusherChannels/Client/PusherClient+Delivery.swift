// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Hands the messages of socket reads to the engine and performs the outcome: one hop to this
    /// actor per batch, not per event. Large batches go in slices, so that consumers are woken
    /// while the rest of the batch is still being handled.
    func received(_ messages: [InboundMessage], generation: Generation) {
        self.registerPendingConsumers()
        var actions = self.actionBuffer
        self.actionBuffer = []
        let now = self.clock.now
        var start = messages.startIndex
        while start < messages.endIndex {
            let end = min(start + Self.sliceSize, messages.endIndex)
            actions.removeAll(keepingCapacity: true)
            self.engine.received(messages[start..<end], generation: generation, at: now, into: &actions)
            self.perform(actions)
            start = end
        }
        self.actionBuffer = actions
        self.metrics?.received(total: self.engine.channelEventsReceived)
    }

    /// How many messages are handled between two wake-ups of waiting consumers.
    static let sliceSize = 128

    /// The batch's hand-over to consumers (one lock and one wake-up each), counting what was
    /// delivered, dropped and failed: one counter increment per batch (per channel with channel
    /// labels), not per event. Appends the consumers that are gone or just failed to `failed`.
    func handOver(_ staged: [EventConsumer], failed: inout [ConsumerID]) {
        let labelled = self.metrics?.includesChannelLabel ?? false
        var total = DeliveryTally()
        for consumer in staged {
            var tally = DeliveryTally()
            if !consumer.flush(tally: &tally) { failed.append(consumer.id) }
            if labelled { self.metrics?.handedOver(tally, channel: consumer.buffer.channel) } else { total += tally }
        }
        if !labelled { self.metrics?.handedOver(total, channel: nil) }
    }
}
