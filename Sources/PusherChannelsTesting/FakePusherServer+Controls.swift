// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherServerEngine

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
        let (actions, recipients) = self.engine.publish(channel: channel, event: event, data: data, userID: userID)
        self.perform(actions)
        return recipients
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
            self.sinks[id]?.send(bytes: bytes)
        }
    }

    /// Sends a binary frame (not part of the protocol; clients should report and ignore it).
    public func sendBinary(_ bytes: [UInt8], to connection: Int? = nil) {
        for id in self.targets(connection) {
            self.sinks[id]?.sendBinary(bytes)
        }
    }

    /// Sends `pusher:error` with `{"message", "code"}` as a data object, as Pusher does.
    public func sendError(message: String, code: Int?, to connection: Int? = nil) {
        let text = ServerEngine.errorText(message, code: code)
        for id in self.targets(connection) { self.sendText(text, to: id) }
    }

    /// Closes a connection (or every open one) with a close frame carrying `code` and `reason`.
    public func close(_ connection: Int? = nil, code: Int, reason: String = "") {
        for id in self.targets(connection) { self.closeConnection(id, code: code, reason: reason) }
    }

    /// Drops a connection (or every open one) without a close frame, like a network failure.
    public func drop(_ connection: Int? = nil) {
        for id in self.targets(connection) { self.sinks[id]?.drop() }
    }

    /// While on, new connections get HTTP 503 instead of a WebSocket.
    public nonisolated func refuseConnections(_ refuse: Bool) {
        self.refusing.withLockedValue { $0 = refuse }
    }

    /// Whether `pusher:ping` is answered (off simulates a half-open connection).
    public func setAnswersPings(_ answers: Bool) {
        self.engine.settings.answersPings = answers
    }

    private func targets(_ connection: Int?) -> [Int] {
        if let connection { return self.engine.connections[connection] != nil ? [connection] : [] }
        return self.engine.openConnectionIDs
    }

    func sendText(_ text: String, to id: Int) {
        self.sinks[id]?.send(text)
    }

    func closeConnection(_ id: Int, code: Int, reason: String) {
        self.perform(self.engine.close(id, code: code, reason: reason))
    }
}

// The encryption master key and the shared secrets of private-encrypted channels.
extension FakePusherServer {
    /// Replaces the encryption master key: from now on, encrypted events are sealed with the new
    /// channel secrets, and the auth endpoint hands those out (clients holding old secrets must
    /// reload).
    public func rotateEncryptionMasterKey(_ masterKey: String) {
        self.masterKey = masterKey
    }

    /// The shared secret of `channel` under the current master key (what the auth endpoint returns).
    public func sharedSecret(for channel: String) -> String? {
        self.masterKey.flatMap { try? EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: $0) }
    }
}

// The server's state, and waiting for it to match a condition.
extension FakePusherServer {
    /// A task suspended in ``waitUntil(_:)``: resumed by ``changed()`` once `condition` holds.
    struct Waiter {
        let condition: @Sendable (Snapshot) -> Bool
        let signal: WaitableState<Bool>
    }

    /// The server's state now.
    public var snapshot: Snapshot {
        Snapshot(
            connections: self.connections,
            refusedConnections: self.refusedCount.withLockedValue { $0 },
            authRequests: self.authRequests,
            webhooksDelivered: self.webhooksDelivered,
            webhooksFailed: self.webhooksFailed
        )
    }

    /// Suspends until `condition` holds for the server's state, or the task is cancelled (bound it
    /// with a test time limit).
    public func waitUntil(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
        if condition(self.snapshot) { return }
        let signal = WaitableState(false)
        self.waiters.append(Waiter(condition: condition, signal: signal))
        await signal.waitUntilFired()
    }

    /// Suspends until `count` connections have been opened in total (open or not).
    public func waitForConnections(count: Int) async {
        await self.waitUntil { $0.connections.count >= count }
    }

    /// Suspends until `count` open connections are subscribed to `channel`.
    public func waitForSubscribers(of channel: String, count: Int = 1) async {
        await self.waitUntil { $0.subscribers(of: channel) >= count }
    }

    /// Suspends until clients have sent `count` messages named `event` in total; returns them.
    @discardableResult
    public func waitForMessages(named event: String, count: Int = 1) async -> [ReceivedMessage] {
        await self.waitUntil { $0.messages(named: event).count >= count }
        return self.snapshot.messages(named: event)
    }

    /// Every recorded connection in the order they were opened, or, when not recording, the open
    /// ones; with what the engine knows of the open ones.
    private var connections: [Connection] {
        guard self.configuration.recordsTraffic else {
            return self.engine.openConnectionIDs.compactMap { id in
                self.engine.connections[id].map { self.record(of: $0) }
            }
        }
        return self.records.keys.sorted().compactMap { id in
            guard var record = self.records[id] else { return nil }
            if let open = self.engine.connections[id] {
                record.subscriptions = open.subscriptions
                record.userID = open.userID
                record.watchlist = open.watchlist
            }
            return record
        }
    }

    private func record(of connection: ServerConnection) -> Connection {
        var record = Connection(
            id: connection.id, socketID: connection.socketID, requestURI: "", isOpen: true,
            subscriptions: connection.subscriptions, received: [])
        record.userID = connection.userID
        record.watchlist = connection.watchlist
        return record
    }

    func changed() {
        guard !self.waiters.isEmpty else { return }
        let snapshot = self.snapshot
        var remaining: [Waiter] = []
        for waiter in self.waiters {
            if waiter.condition(snapshot) {
                waiter.signal.fire()
            } else {
                remaining.append(waiter)
            }
        }
        self.waiters = remaining
    }
}
