// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket
import PusherChannels

// What the server does with what clients send: connection, frames, subscriptions, client events.
extension FakePusherServer {
    /// Accepts a connection that asked for `uri` (path and query): gives it a socket id and sends
    /// `pusher:connection_established`, or, when the app key is not this server's, sends
    /// `pusher:error` with code 4001 and closes it with 4001 (as Pusher does).
    func open(uri: String, headers: [String: String] = [:], sink: ConnectionSink) -> Int {
        self.nextConnectionID += 1
        let id = self.nextConnectionID
        let socketID = "\(id).\(100_000 + id * 7_919)"
        var connection = Connection(
            id: id, socketID: socketID, requestURI: uri, isOpen: true, subscriptions: [], received: [])
        connection.requestHeaders = headers
        self.live[id] = Live(connection: connection, sink: sink)
        self.order.append(id)
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if !path.hasSuffix("/app/\(self.configuration.appKey)") {
            self.sendError(message: "App key not in this cluster", code: 4001, to: id)
            self.closeConnection(id, code: 4001, reason: "App key not in this cluster")
        } else if self.configuration.sendsConnectionEstablished {
            var payload = #"{"socket_id":"# + JSONWriter.quoted(socketID)
            if let timeout = self.configuration.activityTimeout { payload += #","activity_timeout":\#(timeout)"# }
            payload += "}"
            self.sendText(
                self.encode(PusherMessage(event: PusherEventName.connectionEstablished, data: payload)), to: id)
        }
        self.changed()
        return id
    }

    /// Handles one frame from a loopback WebSocket; returns false when the connection is done.
    func received(_ frame: WebSocketFrame, from id: Int) -> Bool {
        switch frame.opcode {
        case .text:
            let text = String(buffer: frame.unmaskedData)
            self.received(text: text, from: id)
            return true
        case .ping:
            self.live[id]?.sink.pong(frame.unmaskedData)
            return true
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            self.live[id]?.connection.clientCloseCode = code
            if self.live[id]?.closingByServer == false { self.live[id]?.sink.close(code: 1000, reason: "") }
            self.live[id]?.sink.finish()
            self.changed()
            return false
        default:
            return true
        }
    }

    /// Handles one text message from a client.
    func received(text: String, from id: Int) {
        let message = try? PusherMessage(parsing: text)
        self.live[id]?.connection.received.append(ReceivedMessage(text: text, message: message))
        guard let message else {
            self.changed()
            return
        }
        switch message.event {
        case PusherEventName.subscribe:
            let data = try? message.parsedData()
            if let channel = data?["channel"]?.stringValue {
                self.subscribe(
                    id, to: channel, auth: data?["auth"]?.stringValue, channelData: data?["channel_data"]?.stringValue)
            }
        case PusherEventName.unsubscribe:
            if let channel = (try? message.parsedData())?["channel"]?.stringValue,
                self.live[id]?.connection.subscriptions.remove(channel) != nil
            {
                self.leavePresence(channel, connection: id)
                self.sendSubscriptionCount(of: channel)
                if self.subscribers(of: channel).isEmpty { self.webhookChannelVacated(channel) }
            }
        case PusherEventName.ping:
            if self.answersPings { self.sendText(OutboundMessage.pong, to: id) }
        case PusherEventName.signIn where self.configuration.answersSignIn:
            self.signIn(id, data: try? message.parsedData())
        default:
            if message.event.hasPrefix("client-") { self.relayClientEvent(message, from: id, original: text) }
        }
        self.changed()
    }

    private func subscribe(_ id: Int, to channel: String, auth: String?, channelData: String?) {
        guard let connection = self.live[id]?.connection else { return }
        if connection.subscriptions.contains(channel) {
            self.sendError(message: "Existing subscription to channel \(channel)", code: nil, to: id)
            return
        }
        if channel.hasPrefix("#server-to-user-") {
            guard let userID = connection.userID, channel == "#server-to-user-\(userID)" else {
                self.sendError(message: "Not signed in as the user of \(channel)", code: nil, to: id)
                return
            }
            self.live[id]?.connection.subscriptions.insert(channel)
            self.sendText(
                self.encode(PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: "{}")),
                to: id)
            return
        }
        guard let name = try? ChannelName(validating: channel) else {
            self.sendError(message: "Invalid channel name \(channel)", code: nil, to: id)
            return
        }
        if name.requiresAuthorization {
            guard let secret = self.configuration.appSecret else {
                self.sendText(
                    PusherMessage(
                        event: PusherEventName.subscriptionError,
                        channel: channel,
                        data: #"{"type":"AuthError","error":"this fake server has no app secret","status":401}"#
                    ).serializedWithStringData,
                    to: id
                )
                return
            }
            let expected = PusherSignature.channelAuthorization(
                key: self.configuration.appKey,
                secret: secret,
                socketID: connection.socketID,
                channel: channel,
                channelData: channelData
            )
            guard auth == expected.auth else {
                let signed = "\(connection.socketID):\(channel)" + (channelData.map { ":\($0)" } ?? "")
                let got = auth?.split(separator: ":").last.map(String.init) ?? ""
                let message = "Invalid signature: Expected HMAC SHA256 hex digest of \(signed), but got \(got)"
                switch self.configuration.authRefusal {
                case .pusherError:
                    self.sendError(message: message, code: nil, to: id)
                case .subscriptionError:
                    let data = #"{"type":"AuthError","error":"# + JSONWriter.quoted(message) + #","status":401}"#
                    self.sendText(
                        PusherMessage(event: PusherEventName.subscriptionError, channel: channel, data: data)
                            .serializedWithStringData,
                        to: id)
                }
                return
            }
        }
        var data = "{}"
        var member: JSONValue?
        if name.kind == .presence {
            member = channelData.flatMap { try? JSONValue(parsing: $0) }
            guard member?["user_id"]?.idValue != nil else {
                self.sendError(message: "Invalid presence channel_data: a user_id is required", code: nil, to: id)
                return
            }
        }
        if self.subscribers(of: channel).isEmpty { self.webhookChannelOccupied(channel) }
        if let member, let userID = member["user_id"]?.idValue {
            data = self.joinPresence(channel, userID: userID, info: member["user_info"], connection: id)
        }
        self.live[id]?.connection.subscriptions.insert(channel)
        self.sendText(
            self.encode(PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: data)),
            to: id)
        if Self.isCacheChannel(channel) {
            if let last = self.cache[channel] {
                self.sendText(self.encode(PusherMessage(event: last.event, channel: channel, data: last.data)), to: id)
            } else {
                self.sendText(#"{"event":"pusher:cache_miss","channel":"# + JSONWriter.quoted(channel) + "}", to: id)
            }
        }
        self.sendSubscriptionCount(of: channel)
    }

    /// `cache-`, `private-cache-`, `private-encrypted-cache-` and `presence-cache-` channels.
    static func isCacheChannel(_ channel: String) -> Bool {
        ["cache-", "private-cache-", "private-encrypted-cache-", "presence-cache-"].contains { channel.hasPrefix($0) }
    }

    /// Relays a client event to the channel's other subscribers (never back to the sender), with the
    /// sender's `user_id` on presence channels; refuses it on other channels or when not subscribed.
    private func relayClientEvent(_ message: PusherMessage, from id: Int, original: String) {
        guard PusherNameRules.isValidEventName(message.event) else {
            self.sendError(
                message: "Client event rejected: the event name is over \(PusherNameRules.maximumEventNameBytes) bytes",
                code: nil, to: id)
            return
        }
        guard let channel = message.channel, self.live[id]?.connection.subscriptions.contains(channel) == true,
            [.private, .presence].contains(ChannelName.kind(of: channel))
        else {
            self.sendError(
                message: "Client event rejected: not subscribed to a private or presence channel", code: nil, to: id)
            return
        }
        let userID = self.presence[channel]?.first { $0.value.connections.contains(id) }?.key
        let relayed = Self.relayedText(message, userID: userID, original: original)
        for other in self.subscribers(of: channel) where other != id {
            self.sendText(relayed, to: other)
        }
        if let socketID = self.live[id]?.connection.socketID {
            self.webhookClientEvent(message, channel: channel, socketID: socketID, userID: userID)
        }
    }

    /// A client event as the other members get it: `data` exactly as the sender wrote it (a JSON
    /// string stays that string, an object or another value keeps its exact text), plus `user_id`.
    private static func relayedText(_ message: PusherMessage, userID: String?, original: String) -> String {
        let sentAsString: Bool = {
            guard case .object(let fields)? = try? JSONValue(parsing: original), let data = fields["data"] else {
                return true
            }
            if case .string = data { return true }
            return false
        }()
        guard !sentAsString, let data = message.data else {
            return PusherMessage(event: message.event, channel: message.channel, data: message.data, userID: userID)
                .serializedWithStringData
        }
        var output = #"{"event":"# + JSONWriter.quoted(message.event)
        if let channel = message.channel { output += #","channel":"# + JSONWriter.quoted(channel) }
        output += #","data":"# + data
        if let userID { output += #","user_id":"# + JSONWriter.quoted(userID) }
        return output + "}"
    }

    /// Tells every subscriber of `channel` how many connections are subscribed to it.
    private func sendSubscriptionCount(of channel: String) {
        guard self.configuration.sendsSubscriptionCounts, ChannelName.kind(of: channel) != .presence else { return }
        let subscribers = self.subscribers(of: channel)
        let message = PusherMessage(
            event: PusherEventName.subscriptionCount, channel: channel,
            data: #"{"subscription_count":\#(subscribers.count)}"#)
        for id in subscribers { self.sendText(self.encode(message), to: id) }
    }

    /// The connection has ended; `clientCloseCode` is the code of the client's close, when the
    /// transport did not report it as a frame (in memory).
    func closed(_ id: Int, clientCloseCode: Int? = nil) {
        if let clientCloseCode { self.live[id]?.connection.clientCloseCode = clientCloseCode }
        let channels = self.live[id]?.connection.subscriptions ?? []
        let userID = self.live[id]?.connection.userID
        self.live[id]?.connection.isOpen = false
        if let userID, !self.onlineUsers.contains(userID) { self.notifyWatchers(of: userID, status: "offline") }
        self.live[id]?.connection.subscriptions = []
        for channel in channels.sorted() {
            self.leavePresence(channel, connection: id)
            self.sendSubscriptionCount(of: channel)
            if self.subscribers(of: channel).isEmpty { self.webhookChannelVacated(channel) }
        }
        self.changed()
    }
}
