// SPDX-License-Identifier: MIT

import PusherCore

/// What the transport tells the client about the connection of one generation, on the transport's
/// thread: each goes straight into the engine, under its lock.
struct ConnectionEvents: TransportHandler {
    let client: PusherClient
    let generation: Generation

    func attemptStarted(_ connection: any TransportConnection) {
        self.client.withEngine { $0.attemptBegan(connection, generation: self.generation) }
    }

    func opened() {
        self.client.withEngine { driver in
            driver.perform(driver.engine.transportOpened(generation: self.generation, at: driver.clock.now))
        }
    }

    func received(_ messages: [InboundMessage]) -> Bool {
        self.client.withEngine { $0.received(messages, generation: self.generation) }
    }

    func readingResumed() {
        self.client.withEngine { $0.readingResumed(generation: self.generation) }
    }
}
