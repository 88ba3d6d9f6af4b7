// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Acting as the server: triggering events, sending raw frames and errors, closing and dropping connections.
extension FakePusherServer {
    /// Sends an event to every open connection subscribed to `channel`. Returns how many got it.
    ///
    /// On private-encrypted channels `data` is sealed with the channel's shared secret first, as the
    /// official server libraries do (with ``Configuration/encryptionMasterKey``; without one it is
    /// sent as given). On cache
    /// channels the event is kept as the channel's last event.
    @discardableResult
    public func trigger(channel: String, event: String, data: String, userID: String? = nil) -> Int {
        var data = data
        // Without a master key (or libsodium) the data goes out as given, which clients report as
        // a malformed payload.
        if ChannelName.kind(of: channel) == .privateEncrypted, let secret = self.sharedSecret(for: channel),
            let key = Data(base64Encoded: secret), let sealed = EncryptedPayload.seal(data, key: Array(key))
        {
            data = sealed
        }
        if Self.isCacheChannel(channel) { self.cache[channel] = (event, data) }
        let targets = self.subscribers(of: channel)
        guard !targets.isEmpty else { return 0 }
        let text = self.encode(PusherMessage(event: event, channel: channel, data: data, userID: userID))
        for id in targets { self.sendText(text, to: id) }
        return targets.count
    }

    /// The wire text of `message`, with `data` encoded as configured.
    func encode(_ message: PusherMessage) -> String {
        guard self.configuration.dataEncoding == .object, let data = message.data,
            case .object = try? JSONValue(parsing: data)
        else { return message.serializedWithStringData }
        var output = #"{"event":"# + JSONWriter.quoted(message.event)
        if let channel = message.channel { output += #","channel":"# + JSONWriter.quoted(channel) }
        output += #","data":"# + data
        if let userID = message.userID { output += #","user_id":"# + JSONWriter.quoted(userID) }
        return output + "}"
    }

    /// Sends an event to the user `userID` (Pusher's "send to user"), on `#server-to-user-{userID}`.
    /// Returns how many connections got it.
    @discardableResult
    public func sendToUser(_ userID: String, event: String, data: String) -> Int {
        self.trigger(channel: "#server-to-user-\(userID)", event: event, data: data)
    }

    /// Sends a raw text frame, to one connection or (with `nil`) to every open one.
    public func send(raw text: String, to connection: Int? = nil) {
        for id in self.targets(connection) { self.sendText(text, to: id) }
    }

    /// Sends a text frame made of arbitrary bytes (for example invalid UTF-8).
    public func send(rawBytes bytes: [UInt8], to connection: Int? = nil) {
        for id in self.targets(connection) {
            self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes)))
        }
    }

    /// Sends a binary frame (not part of the protocol; clients should report and ignore it).
    public func sendBinary(_ bytes: [UInt8], to connection: Int? = nil) {
        for id in self.targets(connection) {
            self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: bytes)))
        }
    }

    /// Sends `pusher:error` with `{"message", "code"}` as a data object, as Pusher does.
    public func sendError(message: String, code: Int?, to connection: Int? = nil) {
        let codeText = code.map(String.init) ?? "null"
        let text =
            #"{"event":"pusher:error","data":{"message":"# + JSONWriter.quoted(message) + #","code":\#(codeText)}}"#
        for id in self.targets(connection) { self.sendText(text, to: id) }
    }

    /// Closes a connection (or every open one) with a close frame carrying `code` and `reason`.
    public func close(_ connection: Int? = nil, code: Int, reason: String = "") {
        for id in self.targets(connection) { self.closeConnection(id, code: code, reason: reason) }
    }

    /// Drops a connection (or every open one) without a close frame, like a network failure.
    public func drop(_ connection: Int? = nil) {
        for id in self.targets(connection) {
            self.live[id]?.outbox.finish()
            self.live[id]?.channel.close(promise: nil)
        }
    }

    /// While on, new connections get HTTP 503 instead of a WebSocket.
    public nonisolated func refuseConnections(_ refuse: Bool) {
        self.refusing.withLockedValue { $0 = refuse }
    }

    /// Whether `pusher:ping` is answered (off simulates a half-open connection).
    public func setAnswersPings(_ answers: Bool) {
        self.answersPings = answers
    }

    private func targets(_ connection: Int?) -> [Int] {
        if let connection { return self.live[connection]?.connection.isOpen == true ? [connection] : [] }
        return self.order.filter { self.live[$0]?.connection.isOpen == true }
    }

    func sendText(_ text: String, to id: Int) {
        self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
    }

    func closeConnection(_ id: Int, code: Int, reason: String) {
        guard self.live[id]?.closingByServer == false else { return }
        self.live[id]?.closingByServer = true
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
        data.writeString(reason)
        self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
    }
}
