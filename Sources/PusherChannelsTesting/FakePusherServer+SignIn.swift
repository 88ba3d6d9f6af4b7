// SPDX-License-Identifier: MIT

import PusherChannels

// User sign-in and the watchlist.
extension FakePusherServer {
    /// `pusher:signin`: checks the signature of `socket_id::user::user_data`, confirms with
    /// `pusher:signin_success`, and tells watchers that the user is online.
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
                code: nil, to: id)
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
