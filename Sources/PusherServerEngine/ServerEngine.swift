// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

/// The behaviour of a Pusher Channels server (protocol 7), without I/O and without a clock: what
/// connections send goes in, with the time it arrived, and what the server does comes out as
/// ``ServerAction``s for a driver to perform (`FakePusherServer`, and through it `serve`).
///
/// It keeps one record per open connection and drops it when the connection closes; channels are
/// indexed by name, so subscribing and publishing cost the same however many connections came
/// before. Webhooks come in pairs (`channel_occupied` before `channel_vacated`, `member_added`
/// before `member_removed`) for every kind of channel.
package struct ServerEngine: Sendable {
    /// One member of a presence channel: what it said of itself, and the connections it is present on.
    struct PresenceEntry: Sendable, Hashable {
        var info: JSONValue?
        var connections: Set<Int>
    }

    package var settings: ServerSettings
    /// The open connections.
    package internal(set) var connections: [Int: ServerConnection] = [:]
    /// The open connections subscribed to each channel; a channel without any is not here.
    package internal(set) var subscribers: [String: Set<Int>] = [:]
    /// The members of each presence channel by user id.
    var presence: [String: [String: PresenceEntry]] = [:]
    /// The open connections signed in as each user.
    package internal(set) var signedIn: [String: Set<Int>] = [:]
    /// The connections watching each user id.
    var watchers: [String: Set<Int>] = [:]
    /// The last event of each cache channel.
    var cache: [String: (event: String, data: String)] = [:]
    var lastID = 0

    package init(settings: ServerSettings) {
        self.settings = settings
    }

    /// Accepts a connection that asked for `uri` (path and query): gives it a socket id and sends
    /// `pusher:connection_established`, or, when the app key is not this server's, `pusher:error`
    /// 4001 and a close with 4001 (as Pusher does).
    package mutating func open(uri: String, now: Duration) -> (id: Int, actions: [ServerAction]) {
        self.lastID += 1
        let id = self.lastID
        let connection = ServerConnection(id: id, socketID: "\(id).\(100_000 + id &* 7_919)", now: now)
        self.connections[id] = connection
        var actions: [ServerAction] = []
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if !path.hasSuffix("/app/\(self.settings.appKey)") {
            actions.append(.log(.info, "\(connection.socketID): refused: unknown app key in \(Self.escaped(path))"))
            self.sendError("App key not in this cluster", code: 4001, to: id, into: &actions)
            self.close(id, code: 4001, reason: "App key not in this cluster", into: &actions)
        } else if self.settings.sendsConnectionEstablished {
            var payload = #"{"socket_id":"# + JSONWriter.quoted(connection.socketID)
            if let timeout = self.settings.activityTimeout { payload += #","activity_timeout":\#(timeout)"# }
            payload += "}"
            self.send(
                PusherMessage(event: PusherEventName.connectionEstablished, data: payload), to: [id], into: &actions)
        }
        return (id, actions)
    }

    /// The connection has ended: it leaves its channels (members removed, vacated channels' webhooks)
    /// and is forgotten.
    package mutating func closed(_ id: Int) -> [ServerAction] {
        guard let connection = self.connections[id] else { return [] }
        var actions: [ServerAction] = []
        for channel in connection.subscriptions.sorted() {
            self.leave(channel, connection: id, into: &actions)
        }
        for user in connection.watchlist { self.watchers[user]?.remove(id) }
        for user in connection.watchlist where self.watchers[user]?.isEmpty == true { self.watchers[user] = nil }
        self.connections[id] = nil
        if let userID = connection.userID {
            self.signedIn[userID]?.remove(id)
            if self.signedIn[userID]?.isEmpty == true {
                self.signedIn[userID] = nil
                self.notifyWatchers(of: userID, status: "offline", into: &actions)
            }
        }
        return actions
    }

    /// Closes a connection from the server's side (once: a second close of the same connection does
    /// nothing).
    package mutating func close(_ id: Int, code: Int, reason: String) -> [ServerAction] {
        var actions: [ServerAction] = []
        self.close(id, code: code, reason: reason, into: &actions)
        return actions
    }

    mutating func close(_ id: Int, code: Int, reason: String, into actions: inout [ServerAction]) {
        guard self.connections[id]?.closingByServer == false else { return }
        self.connections[id]?.closingByServer = true
        actions.append(.close(id, code: code, reason: reason))
    }

    /// The open connections, in the order they were opened.
    package var openConnectionIDs: [Int] { self.connections.keys.sorted() }

    /// The wire text of `message`, with `data` as a JSON string or, when configured and the data is
    /// an object, as the object.
    package func encode(_ message: PusherMessage) -> String {
        guard self.settings.sendsDataAsObject, let data = message.data, case .object = try? JSONValue(parsing: data)
        else { return message.serializedWithStringData }
        var output = #"{"event":"# + JSONWriter.quoted(message.event)
        if let channel = message.channel { output += #","channel":"# + JSONWriter.quoted(channel) }
        output += #","data":"# + data
        if let userID = message.userID { output += #","user_id":"# + JSONWriter.quoted(userID) }
        return output + "}"
    }

    func send(_ message: PusherMessage, to ids: [Int], into actions: inout [ServerAction]) {
        guard !ids.isEmpty else { return }
        actions.append(.send(self.encode(message), to: ids))
    }

    /// `pusher:error` with `{"message", "code"}` as a data object, as Pusher sends it.
    package static func errorText(_ message: String, code: Int?) -> String {
        let codeText = code.map(String.init) ?? "null"
        return #"{"event":"pusher:error","data":{"message":"# + JSONWriter.quoted(message) + #","code":\#(codeText)}}"#
    }

    func sendError(_ message: String, code: Int?, to id: Int, into actions: inout [ServerAction]) {
        actions.append(.send(Self.errorText(message, code: code), to: [id]))
    }

    /// `text` fit for one log line: control characters escaped, at most 200 characters.
    package static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars.prefix(200) {
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                output += "\\u{\(String(scalar.value, radix: 16))}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 200 ? output + "…" : output
    }
}

// Liveness: a connection silent for the activity timeout is pinged; one that does not answer within
// the pong timeout is closed with 4201, as the protocol says.
extension ServerEngine {
    /// Pings the connections silent for ``ServerSettings/activityTimeout`` and closes with 4201
    /// those pinged ``ServerSettings/pongTimeout`` ago that sent nothing since. The driver calls it
    /// regularly (its period bounds how late a timeout is noticed).
    package mutating func expire(now: Duration) -> [ServerAction] {
        guard let timeout = self.settings.activityTimeout.map({ Duration.seconds($0) }) else { return [] }
        var actions: [ServerAction] = []
        for id in self.connections.keys.sorted() {
            guard let connection = self.connections[id], !connection.closingByServer else { continue }
            if let pinged = connection.pingedAt {
                guard let pongTimeout = self.settings.pongTimeout, now - pinged >= pongTimeout else { continue }
                actions.append(.log(.info, "\(connection.socketID): no answer to the server's ping: closing with 4201"))
                self.close(id, code: 4201, reason: "Pong reply not received", into: &actions)
            } else if now - connection.lastActivity >= timeout {
                self.connections[id]?.pingedAt = now
                actions.append(.ping(id))
            }
        }
        return actions
    }
}
