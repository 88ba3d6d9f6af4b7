// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Sends a client event to the other subscribers of a private or presence channel.
    ///
    /// The channel must have a consumer (be iterated). Until its subscription succeeds, events wait
    /// in order (up to ``PusherClientOptions/clientEventQueueLimit``); then they go out no faster
    /// than ``PusherClientOptions/clientEventRateLimit`` per second, so the server's 4301 limit is
    /// not hit (a 4301 still arrives on ``errors``). `data` is sent as JSON when it is a JSON object
    /// or array, as a string otherwise. The server does not echo client events to their sender.
    ///
    /// - Throws: ``PusherError`` `clientEventRejected` for a name without `client-`, a public or
    ///   encrypted channel, a channel nobody iterates, or a full queue
    ///   (``PusherClientOptions/clientEventQueueLimit``).
    public func trigger(_ event: String, on channel: String, data: String) throws(PusherError) {
        self.registerPendingConsumers()
        self.perform(try self.engine.trigger(event, on: channel, data: data, at: self.clock.now))
    }
}
