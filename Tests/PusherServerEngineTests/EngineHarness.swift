// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto
import PusherServerEngine

/// A server engine with a virtual time and helpers to play clients.
struct EngineHarness {
    var engine: ServerEngine
    var now = Duration.zero

    init(settings: ServerSettings = ServerSettings(appKey: "key", appSecret: "secret")) {
        self.engine = ServerEngine(settings: settings)
    }

    /// Opens a connection with the right key; returns its id and socket id.
    mutating func connect() -> (id: Int, socketID: String) {
        let (id, _) = self.engine.open(uri: "/app/key?protocol=7", now: self.now)
        return (id, self.engine.connections[id]!.socketID)
    }

    mutating func send(_ text: String, from id: Int) -> [ServerAction] {
        self.engine.receive(text: text, from: id, now: self.now)
    }

    mutating func subscribe(_ id: Int, to channel: String, channelData: String? = nil) -> [ServerAction] {
        let socketID = self.engine.connections[id]!.socketID
        var data = #"{"channel":"# + JSONWriter.quoted(channel)
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            let auth = PusherSignature.channelAuthorization(
                key: "key", secret: "secret", socketID: socketID, channel: channel, channelData: channelData)
            data += #","auth":"# + JSONWriter.quoted(auth.auth)
        }
        if let channelData { data += #","channel_data":"# + JSONWriter.quoted(channelData) }
        return self.send(#"{"event":"pusher:subscribe","data":"# + data + "}}", from: id)
    }

    mutating func signIn(_ id: Int, userID: String) -> [ServerAction] {
        let socketID = self.engine.connections[id]!.socketID
        let userData = #"{"id":"# + JSONWriter.quoted(userID) + "}"
        let auth = PusherSignature.userAuthentication(
            key: "key", secret: "secret", socketID: socketID, userData: userData)
        return self.send(
            #"{"event":"pusher:signin","data":{"auth":"# + JSONWriter.quoted(auth) + #","user_data":"#
                + JSONWriter.quoted(userData) + "}}", from: id)
    }
}

extension [ServerAction] {
    /// The names of the webhooks, in order.
    var webhookNames: [String] {
        self.compactMap { if case .webhook(let event) = $0 { event["name"]?.stringValue } else { nil } }
    }

    /// The texts sent to `id`, in order.
    func texts(to id: Int) -> [String] {
        self.compactMap { if case .send(let text, let ids) = $0, ids.contains(id) { text } else { nil } }
    }

    /// The close codes sent to `id`.
    func closeCodes(of id: Int) -> [Int] {
        self.compactMap { if case .close(id, let code, _) = $0 { code } else { nil } }
    }
}
