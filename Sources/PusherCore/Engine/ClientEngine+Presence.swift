// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// A presence subscription succeeded: its roster is rebuilt from the server's snapshot.
    mutating func presenceSubscribed(_ channel: String, _ message: PusherMessage, into actions: inout [Action]) {
        var roster = PresenceRoster()
        do {
            let change = try roster.reset(subscriptionData: try message.parsedData(), channelData: self.presenceChannelData[channel])
            self.rosters[channel] = roster
            self.notifyPresence(change, on: channel, into: &actions)
        } catch {
            var failure = error
            failure.channel = channel
            actions.append(.report(failure))
        }
    }

    mutating func presenceMemberChanged(_ message: PusherMessage, into actions: inout [Action]) {
        guard let channel = message.channel, var roster = self.rosters[channel] else { return }
        do {
            let data = try message.parsedData()
            let change = message.event == PusherEventName.memberAdded ? try roster.memberAdded(data) : try roster.memberRemoved(data)
            self.rosters[channel] = roster
            if let change { self.notifyPresence(change, on: channel, into: &actions) }
        } catch {
            var failure = error
            failure.channel = channel
            actions.append(.report(failure))
        }
    }

    private func notifyPresence(_ change: PresenceChange, on channel: String, into actions: inout [Action]) {
        for id in self.consumers.channels[channel]?.presence ?? [] { actions.append(.deliverPresence(change, consumer: id)) }
    }
}
