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
    ///   encrypted channel, a channel nobody iterates, or a full queue.
    public func trigger(_ event: String, on channel: String, data: String) throws(PusherError) {
        guard event.hasPrefix("client-") else {
            throw PusherError(.clientEventRejected, "client event names start with \"client-\"", channel: channel)
        }
        let name = try ChannelName(validating: channel)
        guard name.kind == .private || name.kind == .presence else {
            throw PusherError(.clientEventRejected, "client events go on private or presence channels, not \(name.kind) ones", channel: channel)
        }
        guard self.consumerCount(on: channel) > 0 else {
            throw PusherError(.clientEventRejected, "subscribe to the channel (iterate it) before triggering on it", channel: channel)
        }
        let text = Self.clientEventText(event, channel: channel, data: data)
        if self.subscriptions.isSubscribed(channel) {
            self.clientEventQueue.append((channel, text))
            self.clientEventWake.signal()
            return
        }
        guard self.waitingClientEvents[channel, default: []].count < self.options.clientEventQueueLimit else {
            throw PusherError(.clientEventRejected, "too many client events wait for the subscription", channel: channel)
        }
        self.waitingClientEvents[channel, default: []].append(text)
    }

    static func clientEventText(_ event: String, channel: String, data: String) -> String {
        var text = #"{"event":"# + JSONWriter.quoted(event) + #","channel":"# + JSONWriter.quoted(channel) + #","data":"#
        switch try? JSONValue(parsing: data) {
        case .object?, .array?: text += data
        default: text += JSONWriter.quoted(data)
        }
        return text + "}"
    }

    func releaseClientEvents(of channel: String) {
        guard let waiting = self.waitingClientEvents.removeValue(forKey: channel), !waiting.isEmpty else { return }
        self.clientEventQueue += waiting.map { (channel, $0) }
        self.clientEventWake.signal()
    }

    func dropClientEvents(of channel: String, reason: String) {
        let waiting = self.waitingClientEvents.removeValue(forKey: channel)?.count ?? 0
        let queued = self.clientEventQueue.count
        self.clientEventQueue.removeAll { $0.channel == channel }
        let dropped = waiting + queued - self.clientEventQueue.count
        if dropped > 0 {
            self.report(PusherError(.clientEventRejected, "\(dropped) client event(s) not sent: \(reason)", channel: channel))
        }
    }

    /// Sends queued client events as the rate limit allows, on the injected clock; sleeps when
    /// nothing is ready. Runs for the whole of `run()`.
    nonisolated func runClientEventPump() async {
        while !Task.isCancelled {
            if let wait = await self.sendClientEvents() {
                try? await self.clock.sleep(for: wait)
            } else {
                await self.clientEventWake.wait()
            }
        }
    }

    /// Sends what may go now; returns how long to wait for the rate limit, or nil when idle.
    private func sendClientEvents() -> Duration? {
        while let next = self.clientEventQueue.first {
            guard self.subscriptions.isSubscribed(next.channel), let generation = self.connection.readyGeneration else {
                // The channel is being subscribed again (a reconnect): wait for it, in order.
                self.clientEventQueue.removeFirst()
                self.waitingClientEvents[next.channel, default: []].append(next.text)
                continue
            }
            if let wait = self.clientEventLimiter.permit(at: self.clock.now) { return wait }
            self.clientEventQueue.removeFirst()
            self.connections[generation]?.outbox.yield(.text(next.text))
        }
        return nil
    }
}
