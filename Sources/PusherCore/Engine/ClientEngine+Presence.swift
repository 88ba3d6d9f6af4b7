// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// A presence subscription succeeded: its roster is rebuilt from the server's snapshot.
    mutating func presenceSubscribed(_ channel: String, _ message: PusherMessage, into actions: inout [Action]) {
        var roster = PresenceRoster(
            maximumMembers: self.configuration.maximumPresenceMembers,
            maximumBytes: self.configuration.maximumPresenceBytes)
        do {
            let (change, overflow) = try roster.reset(
                subscriptionData: try message.parsedData(), channelData: self.presenceChannelData[channel])
            self.rosters[channel] = roster
            if var overflow {
                overflow.channel = channel
                actions.append(.report(overflow))
            }
            self.notifyPresence(change, on: channel, into: &actions)
        } catch {
            var failure = error
            failure.channel = channel
            actions.append(.report(failure))
        }
    }

    mutating func presenceMemberChanged(_ message: PusherMessage, into actions: inout [Action]) {
        guard let channel = message.channel, let index = self.rosters.index(forKey: channel) else { return }
        do {
            let data = try message.parsedData()
            // In place: a copy of the roster would copy every member on every change.
            let change =
                message.event == PusherEventName.memberAdded
                ? try self.rosters.values[index].memberAdded(data) : try self.rosters.values[index].memberRemoved(data)
            if let change { self.notifyPresence(change, on: channel, into: &actions) }
        } catch {
            var failure = error
            failure.channel = channel
            actions.append(.report(failure))
        }
    }

    private func notifyPresence(_ change: PresenceChange, on channel: String, into actions: inout [Action]) {
        for id in self.consumers.channels[channel]?.presence ?? [] {
            actions.append(.deliverPresence(change, consumer: id))
        }
    }
}
