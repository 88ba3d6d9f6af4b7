// SPDX-License-Identifier: MIT

import PusherChannels

// Presence channel membership, and the subscribers of a channel.
extension FakePusherServer {
    /// Adds `connection` as `userID` on a presence channel; tells the others if the user is new.
    /// Returns the subscription's presence payload.
    func joinPresence(_ channel: String, userID: String, info: JSONValue?, connection: Int) -> String {
        var members = self.presence[channel] ?? [:]
        let isNew = members[userID] == nil
        members[userID, default: (info, [])].connections.insert(connection)
        members[userID]?.info = info
        self.presence[channel] = members
        if isNew {
            self.webhookMember(added: true, channel: channel, userID: userID)
            var added = #"{"user_id":"# + JSONWriter.quoted(userID)
            if let info { added += #","user_info":"# + info.jsonText }
            let message = PusherMessage(event: PusherEventName.memberAdded, channel: channel, data: added + "}")
            for other in self.subscribers(of: channel) where other != connection {
                self.sendText(self.encode(message), to: other)
            }
        }
        let ids = members.keys.sorted()
        let hash = JSONValue.object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.info ?? .null) }))
        return #"{"presence":{"ids":"# + JSONValue.array(ids.map(JSONValue.string)).jsonText + #","hash":"#
            + hash.jsonText
            + #","count":\#(ids.count)}}"#
    }

    /// Removes `connection` from a presence channel; tells the others when the user's last connection left.
    func leavePresence(_ channel: String, connection: Int) {
        guard var members = self.presence[channel] else { return }
        for (userID, member) in members where member.connections.contains(connection) {
            members[userID]?.connections.remove(connection)
            guard members[userID]?.connections.isEmpty == true else { continue }
            members[userID] = nil
            self.webhookMember(added: false, channel: channel, userID: userID)
            let message = PusherMessage(
                event: PusherEventName.memberRemoved, channel: channel,
                data: #"{"user_id":"# + JSONWriter.quoted(userID) + "}")
            for other in self.subscribers(of: channel) where other != connection {
                self.sendText(self.encode(message), to: other)
            }
        }
        self.presence[channel] = members
    }

    func subscribers(of channel: String) -> [Int] {
        self.order.filter {
            self.live[$0]?.connection.isOpen == true
                && self.live[$0]?.connection.subscriptions.contains(channel) == true
        }
    }
}

// User sign-in and the watchlist.
extension FakePusherServer {
    /// `pusher:signin`: checks the signature of `socket_id::user::user_data`, confirms with
    /// `pusher:signin_success`, and tells watchers that the user is online. An invalid signature gets
    /// `pusher:error` with code 4009 (the connection stays open).
    func signIn(_ id: Int, data: JSONValue?) {
        guard let connection = self.live[id]?.connection else { return }
        guard let secret = self.configuration.appSecret else {
            self.sendError(message: "this fake server has no app secret to check sign-ins", code: nil, to: id)
            return
        }
        guard let auth = data?["auth"]?.stringValue, let userData = data?["user_data"]?.stringValue else {
            self.sendError(message: "Invalid sign-in: auth and user_data are required", code: nil, to: id)
            return
        }
        let expected = PusherSignature.userAuthentication(
            key: self.configuration.appKey, secret: secret, socketID: connection.socketID, userData: userData)
        guard auth == expected else {
            self.sendError(
                message:
                    "Invalid signature: Expected HMAC SHA256 hex digest of \(connection.socketID)::user::\(userData)",
                code: 4009, to: id)
            return
        }
        guard let user = try? JSONValue(parsing: userData), let userID = user["id"]?.stringValue, !userID.isEmpty else {
            self.sendError(message: "Invalid user_data: a string id is required", code: nil, to: id)
            return
        }
        let wasOnline = self.onlineUsers.contains(userID)
        let watchlist: [String] = {
            guard case .array(let ids)? = user["watchlist"] else { return [] }
            return ids.compactMap(\.idValue)
        }()
        self.live[id]?.connection.userID = userID
        self.live[id]?.connection.watchlist = watchlist
        self.sendText(
            self.encode(
                PusherMessage(
                    event: PusherEventName.signInSuccess, data: #"{"user_data":"# + JSONWriter.quoted(userData) + "}")),
            to: id)
        let online = watchlist.filter { self.onlineUsers.contains($0) && $0 != userID }
        if !online.isEmpty { self.sendWatchlist(status: "online", userIDs: online, to: [id]) }
        if !wasOnline { self.notifyWatchers(of: userID, status: "online") }
    }

    /// Users signed in on at least one open connection.
    var onlineUsers: Set<String> {
        Set(self.live.values.filter(\.connection.isOpen).compactMap(\.connection.userID))
    }

    func notifyWatchers(of userID: String, status: String) {
        let watchers = self.order.filter {
            guard let connection = self.live[$0]?.connection else { return false }
            return connection.isOpen && connection.userID != userID && connection.watchlist.contains(userID)
        }
        self.sendWatchlist(status: status, userIDs: [userID], to: watchers)
    }

    private func sendWatchlist(status: String, userIDs: [String], to connections: [Int]) {
        let ids = userIDs.map(JSONWriter.quoted).joined(separator: ",")
        let data = #"{"events":[{"name":"\#(status)","user_ids":[\#(ids)]}]}"#
        let text = self.encode(PusherMessage(event: PusherEventName.watchlistEvents, data: data))
        for id in connections { self.sendText(text, to: id) }
    }
}
