// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Queues a client event for a private or presence channel that has a consumer. Until the
    /// subscription succeeds it waits (bounded); then events go out in order, paced by the rate limit.
    ///
    /// - Throws: ``PusherError`` `clientEventRejected` for a name without `client-` or longer than
    ///   200 bytes (``PusherNameRules/maximumEventNameBytes``), a public or
    ///   encrypted channel, a channel nobody iterates, or a full queue (`clientEventQueueLimit`
    ///   events wait for the channel's subscription, or for the rate limit in all).
    package mutating func trigger(_ event: String, on channel: String, data: String, at now: Duration)
        throws(PusherError) -> [Action]
    {
        guard event.hasPrefix("client-") else {
            throw PusherError(.clientEventRejected, "client event names start with \"client-\"", channel: channel)
        }
        guard PusherNameRules.isValidEventName(event) else {
            throw PusherError(
                .clientEventRejected,
                "the event name is \(event.utf8.count) bytes, longer than \(PusherNameRules.maximumEventNameBytes)",
                channel: channel)
        }
        let name = try ChannelName(validating: channel)
        guard name.kind == .private || name.kind == .presence else {
            throw PusherError(
                .clientEventRejected, "client events go on private or presence channels, not \(name.kind) ones",
                channel: channel)
        }
        guard self.consumers.count(on: channel) > 0 else {
            throw PusherError(
                .clientEventRejected, "subscribe to the channel (iterate it) before triggering on it", channel: channel)
        }
        let text = Self.clientEventText(event, channel: channel, data: data)
        guard self.subscriptions.isSubscribed(name) else {
            guard self.clientEvents.hold(text, channel: name) else {
                throw PusherError(
                    .clientEventRejected, "too many client events wait for the subscription", channel: channel)
            }
            return []
        }
        guard self.clientEvents.readyCount < self.configuration.clientEventQueueLimit else {
            throw PusherError(
                .clientEventRejected,
                "\(self.configuration.clientEventQueueLimit) client events already wait for the rate limit (clientEventQueueLimit)",
                channel: channel
            )
        }
        self.clientEvents.enqueue(text, channel: name)
        self.now = now
        var actions: [Action] = []
        self.sendClientEvents(at: now, into: &actions)
        return actions
    }

    /// Whether ``trigger(_:on:data:at:)`` would refuse this event only because the queue is full
    /// (its name, channel and consumer are right): it would be taken once events have gone out.
    package func clientEventWaitsForRoom(_ event: String, on channel: String) -> Bool {
        guard event.hasPrefix("client-"), PusherNameRules.isValidEventName(event),
            let name = try? ChannelName(validating: channel), name.kind == .private || name.kind == .presence,
            self.consumers.count(on: channel) > 0
        else { return false }
        guard self.subscriptions.isSubscribed(name) else { return !self.clientEvents.canHold(channel: name) }
        return self.clientEvents.readyCount >= self.configuration.clientEventQueueLimit
    }

    /// The pacing timer (``TimerID/clientEvents``) fired: send what the rate limit allows now.
    mutating func clientEventTimerFired(at now: Duration, into actions: inout [Action]) {
        self.clientEvents.isTimerRunning = false
        self.sendClientEvents(at: now, into: &actions)
    }

    /// The connection is lost: every event ready to go waits for its channel's next subscription
    /// again (in order), so the pacing timer has nothing to do and is cancelled.
    mutating func clientEventsConnectionLost(into actions: inout [Action]) {
        while self.clientEvents.first != nil { self.clientEvents.holdFirstAgain() }
        guard self.clientEvents.isTimerRunning else { return }
        self.clientEvents.isTimerRunning = false
        actions.append(.cancelTimer(.clientEvents))
    }

    /// The text of a client event: `data` goes as JSON when it is a JSON object or array, else as a string.
    static func clientEventText(_ event: String, channel: String, data: String) -> String {
        var text =
            #"{"event":"# + JSONWriter.quoted(event) + #","channel":"# + JSONWriter.quoted(channel) + #","data":"#
        switch try? JSONValue(parsing: data) {
        case .object?, .array?: text += data
        default: text += JSONWriter.quoted(data)
        }
        return text + "}"
    }

    /// Sends queued events as the rate limit allows; starts the pacing timer when it holds some back.
    private mutating func sendClientEvents(at now: Duration, into actions: inout [Action]) {
        while let next = self.clientEvents.first {
            guard self.subscriptions.isSubscribed(next.channel), let generation = self.connection.readyGeneration else {
                // The channel is being subscribed again (a reconnect): wait for it, in order.
                self.clientEvents.holdFirstAgain()
                continue
            }
            if let wait = self.clientEvents.limiter.permit(at: now) {
                if !self.clientEvents.isTimerRunning {
                    self.clientEvents.isTimerRunning = true
                    actions.append(.scheduleTimer(.clientEvents, deadline: now + wait))
                }
                return
            }
            self.clientEvents.removeFirst()
            actions.append(.send(generation: generation, text: next.text))
        }
    }

    /// `channel`'s subscription succeeded: its waiting events join the queue.
    mutating func releaseClientEvents(of channel: ChannelName, into actions: inout [Action]) {
        guard self.clientEvents.release(channel) else { return }
        self.sendClientEvents(at: self.now, into: &actions)
    }

    /// Drops every queued event of `channel` and reports how many went unsent.
    mutating func dropClientEvents(of channel: ChannelName, reason: String, into actions: inout [Action]) {
        let dropped = self.clientEvents.drop(channel)
        if dropped > 0 {
            actions.append(
                .report(
                    PusherError(
                        .clientEventRejected, "\(dropped) client event(s) not sent: \(reason)",
                        channel: channel.rawValue)))
        }
    }
}
