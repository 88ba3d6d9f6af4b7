// SPDX-License-Identifier: MIT

import PusherCore

extension ClientDriver {
    /// Hands a new consumer to the engine and registers its buffer, then performs what the engine
    /// answers (a subscription, a snapshot for a channel already subscribed). Returns the engine's
    /// number, or nil when it was refused or the client has finished (its buffer is then finished,
    /// with the refusal's error if there is one).
    mutating func addConsumer(
        _ request: ClientEngine.ConsumerRequest, _ buffer: ConsumerRegistry.NewConsumer
    ) -> ConsumerID? {
        guard !self.registry.isClosed else {
            buffer.finish()
            return nil
        }
        let added: (id: ConsumerID, actions: [ClientEngine.Action])?
        do {
            added = try self.engine.addConsumer(request, at: self.clock.now)
        } catch {
            buffer.finish(throwing: error)
            return nil
        }
        guard let (id, actions) = added else {
            buffer.finish()
            return nil
        }
        switch buffer {
        case .events(let buffer): self.registry.add(EventConsumer(id: id, buffer: buffer))
        case .presence(let buffer): self.registry.add(buffer, id: id)
        }
        self.perform(actions)
        return id
    }
}
