// SPDX-License-Identifier: MIT

import PusherCore

extension ClientDriver {
    /// Hands a new consumer to the engine under its number and registers it, then performs what
    /// the engine answers (a subscription, a snapshot for a channel already subscribed). Returns
    /// false when it was refused or the client has finished (the consumer is then finished, with
    /// the refusal's error if there is one).
    @discardableResult
    mutating func addConsumer(_ request: ClientEngine.ConsumerRequest, _ consumer: ConsumerRegistry.NewConsumer) -> Bool
    {
        guard !self.registry.isClosed else {
            consumer.finish()
            return false
        }
        let added: (id: ConsumerID, actions: [ClientEngine.Action])?
        do {
            added = try self.engine.addConsumer(request, id: consumer.id, at: self.clock.now)
        } catch {
            consumer.finish(throwing: error)
            return false
        }
        guard let (_, actions) = added else {
            consumer.finish()
            return false
        }
        self.registry.add(consumer)
        self.perform(actions)
        return true
    }

    /// Removes consumer `id`, of any kind: a notification consumer goes from the registry; an
    /// event or presence consumer from the engine, which unsubscribes its channel if it was the
    /// last one. Unknown numbers are ignored.
    mutating func removeConsumer(_ id: ConsumerID) {
        if self.registry.removeObserver(id) { return }
        self.perform(self.engine.removeConsumer(id))
    }
}
