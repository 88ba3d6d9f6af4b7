// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

// User sign-in and the watchlist.
extension ServerEngine {
    /// `pusher:signin`: checks the signature of `socket_id::user::user_data`, confirms with
    /// `pusher:signin_success`, and tells watchers that the user is online. An invalid signature gets
    /// `pusher:error` with code 4009 (the connection stays open).
    mutating func signIn(_ id: Int, data: JSONValue?, into actions: inout [ServerAction]) {
        guard let connection = self.connections[id] else { return }
        guard let secret = self.settings.appSecret else {
            self.refuse(id, "this fake server has no app secret to check sign-ins", into: &actions)
            return
        }
        guard let auth = data?["auth"]?.stringValue, let userData = data?["user_data"]?.stringValue else {
            self.refuse(id, "Invalid sign-in: auth and user_data are required", into: &actions)
            return
        }
        let expected = PusherSignature.userAuthentication(
            key: self.settings.appKey, secret: secret, socketID: connection.socketID, userData: userData)
        guard auth == expected else {
            self.refuse(
                id, "Invalid signature: Expected HMAC SHA256 hex digest of \(connection.socketID)::user::\(userData)",
                code: 4009, into: &actions)
            return
        }
        guard let user = try? JSONValue(parsing: userData), let userID = user["id"]?.stringValue, !userID.isEmpty else {
            self.refuse(id, "Invalid user_data: a string id is required", into: &actions)
            return
        }
        let wasOnline = self.signedIn[userID] != nil
        let watchlist: [String] = {
            guard case .array(let ids)? = user["watchlist"] else { return [] }
            return ids.compactMap(\.idValue)
        }()
        if let previous = connection.userID, previous != userID {
            self.signedIn[previous]?.remove(id)
            if self.signedIn[previous]?.isEmpty == true { self.signedIn[previous] = nil }
        }
        for old in connection.watchlist { self.watchers[old]?.remove(id) }
        self.connections[id]?.userID = userID
        self.connections[id]?.watchlist = watchlist
        self.signedIn[userID, default: []].insert(id)
        for watched in watchlist { self.watchers[watched, default: []].insert(id) }
        self.send(
            PusherMessage(
                event: PusherEventName.signInSuccess, data: #"{"user_data":"# + JSONWriter.quoted(userData) + "}"),
            to: [id], into: &actions)
        let online = watchlist.filter { self.signedIn[$0] != nil && $0 != userID }
        if !online.isEmpty { self.sendWatchlist(status: "online", userIDs: online, to: [id], into: &actions) }
        if !wasOnline { self.notifyWatchers(of: userID, status: "online", into: &actions) }
    }

    /// Tells the connections watching `userID` (other than its own) that it went online or offline.
    mutating func notifyWatchers(of userID: String, status: String, into actions: inout [ServerAction]) {
        let watchers = (self.watchers[userID] ?? []).filter { self.connections[$0]?.userID != userID }
        self.sendWatchlist(status: status, userIDs: [userID], to: watchers.sorted(), into: &actions)
    }

    private func sendWatchlist(status: String, userIDs: [String], to ids: [Int], into actions: inout [ServerAction]) {
        let list = userIDs.map(JSONWriter.quoted).joined(separator: ",")
        let data = #"{"events":[{"name":"\#(status)","user_ids":[\#(list)]}]}"#
        self.send(PusherMessage(event: PusherEventName.watchlistEvents, data: data), to: ids, into: &actions)
    }
}
