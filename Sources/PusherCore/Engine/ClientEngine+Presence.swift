// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// A presence subscription succeeded: its roster is rebuilt from the server's snapshot.
    mutating func resetRoster(of channel: ChannelName, from message: PusherMessage, into actions: inout [Action]) {
        var roster = PresenceRoster(
            maximumMembers: self.configuration.maximumPresenceMembers,
            maximumBytes: self.configuration.maximumPresenceBytes)
        do {
            let (change, overflow) = try roster.reset(
                subscriptionData: try message.parsedData(), channelData: self.presenceChannelData[channel])
            self.rosters[channel] = roster
            if var overflow {
                overflow.channel = channel.rawValue
                actions.append(.report(overflow))
            }
            self.deliverPresence(change, on: channel, into: &actions)
        } catch {
            var failure = error
            failure.channel = channel.rawValue
            actions.append(.report(failure))
        }
    }

    /// `pusher_internal:member_added` or `member_removed` of a presence channel with a roster.
    mutating func handleMemberChange(_ message: PusherMessage, into actions: inout [Action]) {
        guard let name = message.channel else { return }
        let channel = ChannelName(unchecked: name)
        guard let index = self.rosters.index(forKey: channel) else { return }
        do {
            let data = try message.parsedData()
            // In place: a copy of the roster would copy every member on every change.
            let change =
                message.event == PusherEventName.memberAdded
                ? try self.rosters.values[index].memberAdded(data) : try self.rosters.values[index].memberRemoved(data)
            if let change { self.deliverPresence(change, on: channel, into: &actions) }
        } catch {
            var failure = error
            failure.channel = name
            actions.append(.report(failure))
        }
    }

    private func deliverPresence(_ change: PresenceChange, on channel: ChannelName, into actions: inout [Action]) {
        for id in self.consumers.channels[channel.rawValue]?.presence ?? [] {
            actions.append(.deliverPresence(change, consumer: id))
        }
    }
}
