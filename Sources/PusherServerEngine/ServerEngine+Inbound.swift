// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

// What connections send: subscriptions, pings, sign-ins, client events.
extension ServerEngine {
    /// The connection sent something that is not a text message (a WebSocket ping or pong frame):
    /// it is alive.
    package mutating func activity(from id: Int, now: Duration) {
        self.connections[id]?.lastActivity = now
        self.connections[id]?.pingedAt = nil
    }

    /// Handles one text message from a connection.
    package mutating func receive(text: String, from id: Int, now: Duration) -> [ServerAction] {
        guard let connection = self.connections[id] else { return [] }
        self.activity(from: id, now: now)
        var actions: [ServerAction] = []
        guard let message = try? PusherMessage(parsing: text) else {
            actions.append(.log(.info, "\(connection.socketID): ignored a message that is not a Pusher message"))
            return actions
        }
        switch message.event {
        case PusherEventName.subscribe:
            let data = try? message.parsedData()
            if let channel = data?["channel"]?.stringValue {
                self.subscribe(
                    id, to: channel, auth: data?["auth"]?.stringValue, channelData: data?["channel_data"]?.stringValue,
                    into: &actions)
            } else {
                self.refuse(id, "pusher:subscribe without a channel", into: &actions)
            }
        case PusherEventName.unsubscribe:
            if let channel = (try? message.parsedData())?["channel"]?.stringValue,
                self.connections[id]?.subscriptions.contains(channel) == true
            {
                self.leave(channel, connection: id, into: &actions)
            }
        case PusherEventName.ping:
            if self.settings.answersPings { actions.append(.send(OutboundMessage.pong, to: [id])) }
        case PusherEventName.pong:
            break
        case PusherEventName.signIn where self.settings.answersSignIn:
            self.signIn(id, data: try? message.parsedData(), into: &actions)
        default:
            if message.event.hasPrefix("client-") {
                self.relayClientEvent(message, original: text, from: id, into: &actions)
            }
        }
        return actions
    }

    /// A refusal the connection is told of with `pusher:error`, and the log line saying why.
    mutating func refuse(_ id: Int, _ message: String, code: Int? = nil, into actions: inout [ServerAction]) {
        let socketID = self.connections[id]?.socketID ?? "?"
        actions.append(.log(.info, "\(socketID): refused: \(Self.escaped(message))"))
        self.sendError(message, code: code, to: id, into: &actions)
    }

    /// `pusher:subscription_error` on `channel` with `{"type","error","status"}`, as soketi and Reverb
    /// send it, and the log line.
    mutating func refuseSubscription(
        _ id: Int, _ channel: String, type: String, _ message: String, status: Int, into actions: inout [ServerAction]
    ) {
        let socketID = self.connections[id]?.socketID ?? "?"
        actions.append(
            .log(.info, "\(socketID): refused subscription to \(Self.escaped(channel)): \(Self.escaped(message))"))
        let data =
            #"{"type":"# + JSONWriter.quoted(type) + #","error":"# + JSONWriter.quoted(message)
            + #","status":\#(status)}"#
        actions.append(
            .send(
                PusherMessage(event: PusherEventName.subscriptionError, channel: channel, data: data)
                    .serializedWithStringData, to: [id]))
    }

    private mutating func subscribe(
        _ id: Int, to channel: String, auth: String?, channelData: String?, into actions: inout [ServerAction]
    ) {
        guard let connection = self.connections[id] else { return }
        if connection.subscriptions.contains(channel) {
            self.refuse(id, "Existing subscription to channel \(channel)", into: &actions)
            return
        }
        if channel.hasPrefix(Self.userChannelPrefix) {
            guard let userID = connection.userID, channel == Self.userChannelPrefix + userID else {
                self.refuse(id, "Not signed in as the user of \(channel)", into: &actions)
                return
            }
            self.join(channel, connection: id, into: &actions)
            self.send(
                PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: "{}"), to: [id],
                into: &actions)
            return
        }
        guard let name = try? ChannelName(validating: channel) else {
            self.refuse(id, "Invalid channel name \(channel)", into: &actions)
            return
        }
        if name.requiresAuthorization {
            guard self.checkAuthorization(id, channel, auth: auth, channelData: channelData, into: &actions) else {
                return
            }
        }
        var member: (id: String, info: JSONValue?)?
        if name.kind == .presence {
            guard let user = self.presenceMember(id, channel, channelData: channelData, into: &actions) else { return }
            member = user
        }
        var data = "{}"
        self.join(channel, connection: id, into: &actions)
        if let member {
            data = self.joinPresence(channel, userID: member.id, info: member.info, connection: id, into: &actions)
        }
        self.send(
            PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: data), to: [id],
            into: &actions)
        if Self.isCacheChannel(channel) {
            if let last = self.cache[channel] {
                self.send(PusherMessage(event: last.event, channel: channel, data: last.data), to: [id], into: &actions)
            } else {
                actions.append(
                    .send(#"{"event":"pusher:cache_miss","channel":"# + JSONWriter.quoted(channel) + "}", to: [id]))
            }
        }
        self.sendSubscriptionCount(of: channel, into: &actions)
    }

    /// Whether `auth` is the app's signature of this subscription; refuses it otherwise.
    private mutating func checkAuthorization(
        _ id: Int, _ channel: String, auth: String?, channelData: String?, into actions: inout [ServerAction]
    ) -> Bool {
        guard let socketID = self.connections[id]?.socketID else { return false }
        guard let secret = self.settings.appSecret else {
            self.refuseSubscription(
                id, channel, type: "AuthError", "this fake server has no app secret", status: 401, into: &actions)
            return false
        }
        let expected = PusherSignature.channelAuthorization(
            key: self.settings.appKey, secret: secret, socketID: socketID, channel: channel, channelData: channelData)
        guard auth == expected.auth else {
            let signed = "\(socketID):\(channel)" + (channelData.map { ":\($0)" } ?? "")
            let got = auth?.split(separator: ":").last.map(String.init) ?? ""
            let message = "Invalid signature: Expected HMAC SHA256 hex digest of \(signed), but got \(got)"
            switch self.settings.authRefusal {
            case .pusherError: self.refuse(id, message, into: &actions)
            case .subscriptionError:
                self.refuseSubscription(id, channel, type: "AuthError", message, status: 401, into: &actions)
            }
            return false
        }
        return true
    }

    /// The member a presence subscription's `channel_data` names, within the presence limits;
    /// refuses the subscription otherwise.
    private mutating func presenceMember(
        _ id: Int, _ channel: String, channelData: String?, into actions: inout [ServerAction]
    ) -> (id: String, info: JSONValue?)? {
        let member = channelData.flatMap { try? JSONValue(parsing: $0) }
        guard let userID = member?["user_id"]?.idValue else {
            self.refuse(id, "Invalid presence channel_data: a user_id is required", into: &actions)
            return nil
        }
        let info = member?["user_info"]
        if userID.count > self.settings.presenceUserIDLength {
            self.refuseSubscription(
                id, channel, type: "LimitReached",
                "The user id is over \(self.settings.presenceUserIDLength) characters", status: 4100, into: &actions)
            return nil
        }
        if let info, info.jsonText.utf8.count > self.settings.presenceUserInfoBytes {
            self.refuseSubscription(
                id, channel, type: "LimitReached",
                "The user_info is over \(self.settings.presenceUserInfoBytes) bytes", status: 4100, into: &actions)
            return nil
        }
        let members = self.presence[channel] ?? [:]
        if members[userID] == nil, members.count >= self.settings.presenceMembers {
            self.refuseSubscription(
                id, channel, type: "LimitReached",
                "The presence channel is full: \(self.settings.presenceMembers) members", status: 4100, into: &actions)
            return nil
        }
        return (userID, info)
    }
}
