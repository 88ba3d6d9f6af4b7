// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Membership changes of a presence channel: the current members first (and again after every
    /// resubscription, replacing what was known), then additions and removals. Iterating subscribes
    /// the channel, like ``events(on:named:authorization:buffering:)``; it needs an authorizer that
    /// gives `channel_data`, or an `authorization` you obtained for the current connection (see
    /// ``ProvidedAuthorization``).
    public nonisolated func presence(on channel: String, authorization: ProvidedAuthorization? = nil) -> PresenceChangeSequence {
        ChannelSequence { () async throws(PusherError) in
            try await self.addPresenceListener(channel: channel, authorization: authorization)
        }
    }

    /// The members of a subscribed presence channel now, or nil before its subscription succeeded.
    public func members(of channel: String) -> PresenceSnapshot? {
        self.rosters[channel]?.snapshot
    }

    private func addPresenceListener(
        channel name: String,
        authorization: ProvidedAuthorization?
    ) throws(PusherError) -> (AsyncThrowingStream<PresenceChange, any Error>, ListenerToken) {
        let channel = try self.subscribableChannel(name, provided: authorization)
        guard channel.kind == .presence else {
            throw PusherError(.invalidChannelName, "membership is only known on presence- channels", channel: name)
        }
        let id = self.makeListenerID()
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: PresenceChange.self,
            bufferingPolicy: .bufferingOldest(self.options.buffering.limit)
        )
        let commands = self.commands
        continuation.onTermination = { _ in commands.yield(.removeListener(id)) }
        if let roster = self.rosters[name] { continuation.yield(.snapshot(roster.snapshot)) }
        self.presenceListeners[name, default: []].append(PresenceListener(id: id, continuation: continuation))
        self.consumerRegistered(id, on: channel)
        return (stream, ListenerToken(id: id, commands: commands))
    }

    func presenceSubscribed(_ channel: String, _ message: PusherMessage) {
        var roster = PresenceRoster()
        do {
            let change = try roster.reset(subscriptionData: try message.parsedData(), channelData: self.presenceChannelData[channel])
            self.rosters[channel] = roster
            self.notifyPresence(change, on: channel)
        } catch {
            var failure = error
            failure.channel = channel
            self.report(failure)
        }
    }

    func presenceMemberChanged(_ message: PusherMessage) {
        guard let channel = message.channel, var roster = self.rosters[channel] else { return }
        do {
            let data = try message.parsedData()
            let change = message.event == PusherEventName.memberAdded ? try roster.memberAdded(data) : try roster.memberRemoved(data)
            self.rosters[channel] = roster
            if let change { self.notifyPresence(change, on: channel) }
        } catch {
            var failure = error
            failure.channel = channel
            self.report(failure)
        }
    }

    private func notifyPresence(_ change: PresenceChange, on channel: String) {
        var removed: [Int] = []
        for listener in self.presenceListeners[channel] ?? []
        where !Self.yield(change, to: listener.continuation, failsWhenFull: true, channel: channel) {
            removed.append(listener.id)
        }
        for id in removed { self.removeListener(id) }
    }
}
