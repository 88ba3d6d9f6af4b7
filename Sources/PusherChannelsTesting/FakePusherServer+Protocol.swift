// SPDX-License-Identifier: MIT

import Logging
import NIOCore
import NIOWebSocket
import PusherChannels
import PusherServerEngine

// The driver of the server engine: what connections send goes in, what the engine decides is done
// here (frames written, connections closed, webhooks queued, lines logged), and recorded for tests.
extension FakePusherServer {
    /// The engine's time: how long the server has been running.
    var now: Duration { ContinuousClock.now - self.started }

    /// Accepts a connection that asked for `uri` (path and query); see ``ServerEngine/open(uri:now:)``.
    func open(uri: String, headers: [String: String] = [:], sink: ConnectionSink) -> Int {
        let (id, actions) = self.engine.open(uri: uri, now: self.now)
        self.sinks[id] = sink
        let socketID = self.engine.connections[id]?.socketID ?? ""
        if self.configuration.recordsTraffic {
            var connection = Connection(
                id: id, socketID: socketID, requestURI: uri, isOpen: true, subscriptions: [], received: [])
            connection.requestHeaders = headers
            self.records[id] = connection
        }
        self.log(.info, "\(socketID): connected (\(self.engine.connections.count) open)")
        self.perform(actions)
        self.changed()
        return id
    }

    /// Handles one frame from a loopback WebSocket (whole: fragments are joined before, masking is
    /// checked before); returns false when the connection is done.
    func received(_ frame: WebSocketFrame, from id: Int) -> Bool {
        switch frame.opcode {
        case .text:
            let data = frame.unmaskedData
            guard let text = String(validating: data.readableBytesView, as: UTF8.self) else {
                self.log(.info, "\(self.socketID(id)): a text frame that is not UTF-8: closing with 1007")
                self.closeConnection(id, code: 1007, reason: "Invalid UTF-8 in a text frame")
                return true
            }
            self.received(text: text, from: id)
            return true
        case .ping:
            self.engine.activity(from: id, now: self.now)
            self.sinks[id]?.pong(frame.unmaskedData)
            return true
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            self.records[id]?.clientCloseCode = code
            if let code { self.clientCloseCodes[id] = code }
            if self.engine.connections[id]?.closingByServer == false { self.sinks[id]?.close(code: 1000, reason: "") }
            self.sinks[id]?.finish()
            self.changed()
            return false
        default:
            self.engine.activity(from: id, now: self.now)
            return true
        }
    }

    /// Handles one text message from a client.
    func received(text: String, from id: Int) {
        if self.configuration.recordsTraffic, self.records[id] != nil,
            self.recordedBytes + text.utf8.count <= self.configuration.limits.recordedBytes
        {
            self.recordedBytes += text.utf8.count
            self.records[id]?.received.append(ReceivedMessage(text: text, message: try? PusherMessage(parsing: text)))
        }
        self.log(.debug, "\(self.socketID(id)) → \(ServerEngine.escaped(text))")
        self.perform(self.engine.receive(text: text, from: id, now: self.now))
        self.changed()
    }

    /// The connection has ended; `clientCloseCode` is the code of the client's close, when the
    /// transport did not report it as a frame (in memory). Nothing of it is kept but its record
    /// (when recording).
    func closed(_ id: Int, clientCloseCode: Int? = nil) {
        if let clientCloseCode { self.records[id]?.clientCloseCode = clientCloseCode }
        let sentCode = self.clientCloseCodes.removeValue(forKey: id)
        let code = (clientCloseCode ?? sentCode).map { ", the client's code \($0)" } ?? ""
        let socketID = self.socketID(id)
        if let userID = self.engine.connections[id]?.userID { self.records[id]?.userID = userID }
        self.perform(self.engine.closed(id))
        self.sinks[id] = nil
        if self.records[id] != nil {
            self.records[id]?.isOpen = false
            self.records[id]?.subscriptions = []
            self.closedRecords.append(id)
            if self.closedRecords.count > self.configuration.limits.recordedConnections {
                let oldest = self.closedRecords.removeFirst()
                if let record = self.records.removeValue(forKey: oldest) {
                    self.recordedBytes -= record.received.reduce(0) { $0 + $1.text.utf8.count }
                }
            }
        }
        self.log(.info, "\(socketID): closed\(code) (\(self.engine.connections.count) open)")
        self.changed()
    }

    /// Pings the silent connections and closes those that did not answer; the lifecycle's timer
    /// calls it every second.
    func expireSilentConnections() {
        let actions = self.engine.expire(now: self.now)
        guard !actions.isEmpty else { return }
        self.perform(actions)
        self.changed()
    }

    /// Does what the engine decided, in order.
    func perform(_ actions: [ServerAction]) {
        let logsFrames = self.configuration.logger.map { $0.logLevel <= .debug } ?? false
        for action in actions {
            switch action {
            case .send(let text, let ids):
                for id in ids { self.sinks[id]?.send(text) }
                if logsFrames {
                    for id in ids { self.log(.debug, "\(self.socketID(id)) ← \(ServerEngine.escaped(text))") }
                }
            case .close(let id, let code, let reason):
                self.sinks[id]?.close(code: code, reason: reason)
                self.log(.info, "\(self.socketID(id)): closing with \(code) \(ServerEngine.escaped(reason))")
            case .ping(let id):
                self.sinks[id]?.send(#"{"event":"pusher:ping","data":{}}"#)
                self.sinks[id]?.ping()
            case .webhook(let event):
                self.queueWebhook(event)
            case .log(let level, let message):
                self.log(level, message)
            }
        }
    }

    func socketID(_ id: Int) -> String {
        self.engine.connections[id]?.socketID ?? self.records[id]?.socketID ?? "connection \(id)"
    }

    func log(_ level: ServerLogLevel, _ message: @autoclosure () -> String) {
        guard let logger = self.configuration.logger else { return }
        switch level {
        case .debug: logger.debug("\(message())")
        case .info: logger.info("\(message())")
        case .error: logger.error("\(message())")
        }
    }
}
