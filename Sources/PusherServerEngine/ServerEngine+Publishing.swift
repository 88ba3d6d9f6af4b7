// SPDX-License-Identifier: MIT

import PusherCore

// Events from the server's side: triggers (the HTTP API's or a test's), users' own channels,
// terminating a user's connections.
extension ServerEngine {
    /// Sends an event to every connection subscribed to `channel` but the one whose socket id is
    /// `excluding`; keeps it as a cache channel's last event. Returns the actions and how many
    /// connections got it.
    package mutating func publish(
        channel: String, event: String, data: String, userID: String? = nil, excluding socketID: String? = nil
    ) -> (actions: [ServerAction], recipients: Int) {
        if Self.isCacheChannel(channel) { self.cache[channel] = (event, data) }
        guard let subscribers = self.subscribers[channel] else { return ([], 0) }
        // One pass over the channel's subscribers, in no particular order (nothing depends on it).
        let targets: [Int] =
            socketID == nil
            ? Array(subscribers) : subscribers.filter { self.connections[$0]?.socketID != socketID }
        guard !targets.isEmpty else { return ([], 0) }
        var actions: [ServerAction] = []
        self.send(
            PusherMessage(event: event, channel: channel, data: data, userID: userID), to: targets, into: &actions)
        return (actions, targets.count)
    }

    /// Sends an event on `#server-to-user-ID` to every connection signed in as the user (subscribed
    /// to that channel or not), but the one whose socket id is `excluding`.
    package mutating func publishToUser(
        _ userID: String, event: String, data: String, excluding socketID: String? = nil
    ) -> [ServerAction] {
        let targets = (self.signedIn[userID] ?? []).filter { self.connections[$0]?.socketID != socketID }
        var actions: [ServerAction] = []
        self.send(
            PusherMessage(event: event, channel: Self.userChannelPrefix + userID, data: data), to: targets.sorted(),
            into: &actions)
        return actions
    }

    /// Closes every connection signed in as `userID` with 4009.
    package mutating func terminateConnections(of userID: String) -> [ServerAction] {
        var actions: [ServerAction] = []
        for id in (self.signedIn[userID] ?? []).sorted() {
            self.close(id, code: 4009, reason: "Connection terminated by the server", into: &actions)
        }
        return actions
    }
}

// What the HTTP API's queries read.
extension ServerEngine {
    /// How many open connections are subscribed to `channel`.
    package func subscriberCount(of channel: String) -> Int { self.subscribers[channel]?.count ?? 0 }

    /// The user ids present on a presence channel, sorted.
    package func users(of channel: String) -> [String] { (self.presence[channel] ?? [:]).keys.sorted() }

    /// Channels with at least one subscriber (not users' own channels).
    package var occupiedChannels: [String] { self.subscribers.keys.filter { !$0.hasPrefix("#") } }
}
