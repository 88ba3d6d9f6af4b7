// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PusherChannels

/// An in-process Pusher Channels server (protocol 7) on a real loopback WebSocket, for tests and
/// offline examples.
///
/// It accepts connections (each gets a socket id and `pusher:connection_established`), answers
/// `pusher:subscribe`, `pusher:unsubscribe` and `pusher:ping`, and lets a test act as the server:
/// trigger events, send `pusher:error`, close a connection with any code, drop it without a close
/// frame, or refuse new connections. It records what every client sent, and ``waitUntil(_:)``
/// suspends until its state matches a condition, so tests never sleep.
///
/// ```swift
/// try await FakePusherServer.withRunning { server in
///     let client = PusherClient(key: server.appKey, options: server.clientOptions(), clock: VirtualClock())
///     try await withRunning(client) { client in
///         var events = client.events(on: "prices").makeAsyncIterator()
///         async let first = events.next()
///         await server.waitForSubscribers(of: "prices")
///         await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
///         #expect(try await first?.data == #"{"price":1}"#)
///     }
/// }
/// ```
public actor FakePusherServer {
    public struct Configuration: Sendable {
        /// The app key the server accepts; other keys are closed with 4001.
        public var appKey: String
        /// The app secret. With one, private and presence subscriptions are accepted only with a
        /// valid signature (otherwise `pusher:error` "Invalid signature…", as Pusher answers);
        /// without one they are refused with `pusher:subscription_error`.
        public var appSecret: String?
        /// `activity_timeout` announced in `pusher:connection_established`; `nil` leaves it out.
        public var activityTimeout: Int?
        /// Whether `pusher:ping` is answered with `pusher:pong`.
        public var answersPings: Bool
        /// Whether `pusher:connection_established` is sent after the upgrade (off holds clients in
        /// the handshake).
        public var sendsConnectionEstablished: Bool
        /// Whether `pusher_internal:subscription_count` is sent to a channel's subscribers when the
        /// count changes (not on presence channels, as on Pusher).
        public var sendsSubscriptionCounts: Bool
        /// How `data` is sent, for events and for the server's own messages: as a JSON string
        /// holding the data (what Pusher does) or, when the data is a JSON object, as the object
        /// itself (what some other servers do).
        public var dataEncoding: DataEncoding
        /// The app's encryption master key (base64 of 32 bytes). With one, events triggered on
        /// private-encrypted channels are sealed with the channel's shared secret, and the auth
        /// endpoint returns `shared_secret`. ``rotateEncryptionMasterKey(_:)`` changes it.
        public var encryptionMasterKey: String?
        /// Whether `pusher:signin` is checked and answered (off lets a test answer by hand with
        /// ``send(raw:to:)``).
        public var answersSignIn: Bool

        public enum DataEncoding: Sendable {
            case string
            case object
        }

        public init(
            appKey: String = "fake-app-key",
            appSecret: String? = nil,
            activityTimeout: Int? = 120,
            answersPings: Bool = true,
            sendsConnectionEstablished: Bool = true,
            sendsSubscriptionCounts: Bool = false,
            dataEncoding: DataEncoding = .string,
            encryptionMasterKey: String? = nil,
            answersSignIn: Bool = true
        ) {
            self.answersSignIn = answersSignIn
            self.encryptionMasterKey = encryptionMasterKey
            self.sendsSubscriptionCounts = sendsSubscriptionCounts
            self.appKey = appKey
            self.appSecret = appSecret
            self.activityTimeout = activityTimeout
            self.answersPings = answersPings
            self.sendsConnectionEstablished = sendsConnectionEstablished
            self.dataEncoding = dataEncoding
        }
    }

    /// One message a client sent.
    public struct ReceivedMessage: Sendable, Hashable {
        public var text: String
        /// The parsed envelope, nil when the text was not a valid message.
        public var message: PusherMessage?
        public var event: String? { self.message?.event }
    }

    /// One request to the auth endpoint (`POST /pusher/auth`).
    public struct AuthRequest: Sendable, Hashable {
        public var method: String
        /// Header names are lowercased.
        public var headers: [String: String]
        /// The decoded form fields (`socket_id`, `channel_name`, extra parameters).
        public var fields: [String: String]
        /// The body exactly as sent.
        public var body: String
    }

    /// How the auth endpoint answers.
    public enum AuthEndpointBehavior: Sendable, Hashable {
        /// Sign with the app secret, as a well-behaved backend does (presence channels get
        /// `{"user_id":"user-<socket id>"}` as channel_data).
        case sign
        /// Answer with this status and body.
        case respond(status: Int, body: String)
    }

    /// One client connection, as the server sees it.
    public struct Connection: Sendable, Identifiable {
        public let id: Int
        public let socketID: String
        /// The request path and query the client opened, e.g. `/app/key?protocol=7&client=…`.
        public let requestURI: String
        public var isOpen: Bool
        public var subscriptions: Set<String>
        public var received: [ReceivedMessage]
        /// The close code the client sent, if it closed the connection with a close frame.
        public var clientCloseCode: Int?
        /// The user id the connection signed in as (`pusher:signin`), if it did.
        public var userID: String?
        /// The signed-in user's watchlist.
        public var watchlist: [String] = []
    }

    /// A copy of the server's state, for ``waitUntil(_:)`` conditions and assertions.
    public struct Snapshot: Sendable {
        public var connections: [Connection]
        /// Upgrade requests refused while ``refuseConnections(_:)`` was on.
        public var refusedConnections: Int
        /// Requests the auth endpoint received, in order.
        public var authRequests: [AuthRequest]

        public var openConnections: [Connection] { self.connections.filter(\.isOpen) }

        public func subscribers(of channel: String) -> Int {
            self.connections.filter { $0.isOpen && $0.subscriptions.contains(channel) }.count
        }

        /// Every message clients sent with this event name, in order.
        public func messages(named event: String) -> [ReceivedMessage] {
            self.connections.flatMap(\.received).filter { $0.event == event }
        }
    }

    private struct Live {
        var connection: Connection
        let outbox: AsyncStream<WebSocketFrame>.Continuation
        let channel: any Channel
        var closingByServer = false
    }

    private struct Waiter {
        let condition: @Sendable (Snapshot) -> Bool
        let signal: OneShotSignal
    }

    public nonisolated let configuration: Configuration
    /// The loopback port the server listens on.
    public nonisolated let port: Int
    public nonisolated let host = "127.0.0.1"
    public nonisolated var appKey: String { self.configuration.appKey }

    private nonisolated let refusing: NIOLockedValueBox<Bool>
    private nonisolated let refusedCount: NIOLockedValueBox<Int>
    private var live: [Int: Live] = [:]
    private var order: [Int] = []
    private var nextConnectionID = 0
    private var waiters: [Waiter] = []
    private var answersPings: Bool
    private var authRequests: [AuthRequest] = []
    /// Presence members per channel: user id → (user info, the connections it is present on).
    private var presence: [String: [String: (info: JSONValue?, connections: Set<Int>)]] = [:]
    private var authEndpointBehavior = AuthEndpointBehavior.sign
    private var masterKey: String?
    /// The last event of each cache channel (name, data).
    private var cache: [String: (event: String, data: String)] = [:]

    private init(configuration: Configuration, port: Int, refusing: NIOLockedValueBox<Bool>, refusedCount: NIOLockedValueBox<Int>) {
        self.configuration = configuration
        self.port = port
        self.refusing = refusing
        self.refusedCount = refusedCount
        self.answersPings = configuration.answersPings
        self.masterKey = configuration.encryptionMasterKey
    }

    /// The user-auth endpoint this server serves over plain HTTP:
    /// `http://127.0.0.1:PORT/pusher/user-auth`. It signs `{"id":"user-<socket id>"}`, or the
    /// `user_id` form field when one is sent.
    public nonisolated var userAuthEndpoint: URL {
        URL(string: "http://\(self.host):\(self.port)/pusher/user-auth")!  // host and port are always valid here
    }

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

    /// The auth endpoint this server serves over plain HTTP: `http://127.0.0.1:PORT/pusher/auth`.
    public nonisolated var authEndpoint: URL {
        URL(string: "http://\(self.host):\(self.port)/pusher/auth")!  // host and port are always valid here
    }

    /// Sets how the auth endpoint answers from now on.
    public func setAuthEndpoint(_ behavior: AuthEndpointBehavior) {
        self.authEndpointBehavior = behavior
    }

    /// Client options that connect to this server (plain `ws://` on loopback).
    public nonisolated func clientOptions() -> PusherClientOptions {
        PusherClientOptions(host: self.host, port: self.port, useTLS: false)
    }

    // MARK: Lifecycle

    private enum UpgradeResult {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// Starts a server on a free loopback port, runs `body`, then closes every connection and stops.
    public static func withRunning<Result: Sendable>(
        configuration: Configuration = Configuration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FakePusherServer) async throws -> Result
    ) async throws -> Result {
        let refusing = NIOLockedValueBox(false)
        let refusedCount = NIOLockedValueBox(0)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                        maxFrameSize: 1 << 24,
                        shouldUpgrade: { channel, _ in
                            let refuse = refusing.withLockedValue { $0 }
                            if refuse { refusedCount.withLockedValue { $0 += 1 } }
                            return channel.eventLoop.makeSucceededFuture(refuse ? nil : HTTPHeaders())
                        },
                        upgradePipelineHandler: { channel, head in
                            channel.eventLoop.makeCompletedFuture {
                                let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                                return UpgradeResult.websocket(asyncChannel, uri: head.uri)
                            }
                        }
                    )
                    let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                let asyncChannel = try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                                    wrappingChannelSynchronously: channel
                                )
                                return UpgradeResult.http(asyncChannel)
                            }
                        }
                    )
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: configuration)
                    )
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the fake server could not read its own port")
        }
        let server = FakePusherServer(configuration: configuration, port: port, refusing: refusing, refusedCount: refusedCount)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await upgrade in inbound {
                            connections.addTask { await server.handle(upgrade) }
                        }
                    }
                }
            }
            let result: Result
            do {
                result = try await body(server)
            } catch {
                await server.dropAll()
                listener.channel.close(promise: nil)
                group.cancelAll()
                throw error
            }
            await server.dropAll()
            listener.channel.close(promise: nil)
            group.cancelAll()
            return result
        }
    }

    private nonisolated func handle(_ upgrade: EventLoopFuture<UpgradeResult>) async {
        do {
            switch try await upgrade.get() {
            case .websocket(let channel, let uri):
                try await self.serve(channel, uri: uri)
            case .http(let channel):
                try await self.serveHTTP(channel)
            }
        } catch {
            // A failed connection concerns only itself.
        }
    }

    /// Plain HTTP: the auth endpoint, or 503 for anything else (refused WebSocket upgrades).
    private nonisolated func serveHTTP(_ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async throws {
        try await channel.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead): head = requestHead
                case .body(var chunk): body.writeBuffer(&chunk)
                case .end: break
                }
                guard case .end = part else { continue }
                var status = HTTPResponseStatus.serviceUnavailable
                var text = ""
                if let head, head.method == .POST, head.uri.hasPrefix("/pusher/auth") {
                    (status, text) = await self.authorize(head: head, body: String(buffer: body))
                } else if let head, head.method == .POST, head.uri.hasPrefix("/pusher/user-auth") {
                    (status, text) = await self.authenticateUser(head: head, body: String(buffer: body))
                }
                let headers: HTTPHeaders = [
                    "Content-Type": "application/json", "Content-Length": "\(text.utf8.count)", "Connection": "close",
                ]
                try await outbound.write(contentsOf: [
                    .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
                    .body(.byteBuffer(ByteBuffer(string: text))),
                    .end(nil),
                ])
                return
            }
        }
    }

    /// Records a request to one of the auth endpoints; returns its form fields.
    private func recordAuthRequest(head: HTTPRequestHead, body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        self.authRequests.append(AuthRequest(method: "\(head.method)", headers: headers, fields: fields, body: body))
        self.changed()
        return fields
    }

    private func authenticateUser(head: HTTPRequestHead, body: String) -> (HTTPResponseStatus, String) {
        let fields = self.recordAuthRequest(head: head, body: body)
        if case .respond(let status, let text) = self.authEndpointBehavior { return (HTTPResponseStatus(statusCode: status), text) }
        guard let secret = self.configuration.appSecret, let socketID = fields["socket_id"] else {
            return (.forbidden, #"{"error":"cannot sign"}"#)
        }
        let userData = #"{"id":"# + JSONWriter.quoted(fields["user_id"] ?? "user-\(socketID)") + "}"
        let auth = PusherSignature.userAuthentication(key: self.configuration.appKey, secret: secret, socketID: socketID, userData: userData)
        return (.ok, #"{"auth":"# + JSONWriter.quoted(auth) + #","user_data":"# + JSONWriter.quoted(userData) + "}")
    }

    private func authorize(head: HTTPRequestHead, body: String) -> (HTTPResponseStatus, String) {
        let fields = self.recordAuthRequest(head: head, body: body)
        switch self.authEndpointBehavior {
        case .respond(let status, let text):
            return (HTTPResponseStatus(statusCode: status), text)
        case .sign:
            guard let secret = self.configuration.appSecret, let socketID = fields["socket_id"], let channel = fields["channel_name"] else {
                return (.forbidden, #"{"error":"cannot sign"}"#)
            }
            let channelData = channel.hasPrefix("presence-") ? #"{"user_id":"# + JSONWriter.quoted("user-\(socketID)") + "}" : nil
            let authorization = PusherSignature.channelAuthorization(
                key: self.configuration.appKey, secret: secret, socketID: socketID, channel: channel, channelData: channelData
            )
            var text = #"{"auth":"# + JSONWriter.quoted(authorization.auth)
            if let channelData { text += #","channel_data":"# + JSONWriter.quoted(channelData) }
            if channel.hasPrefix("private-encrypted-") {
                guard let secret = self.sharedSecret(for: channel) else { return (.forbidden, #"{"error":"no encryption master key"}"#) }
                text += #","shared_secret":"# + JSONWriter.quoted(secret)
            }
            return (.ok, text + "}")
        }
    }

    private nonisolated func serve(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String) async throws {
        let (frames, outbox) = AsyncStream.makeStream(of: WebSocketFrame.self)
        let id = await self.open(uri: uri, outbox: outbox, channel: channel.channel)
        defer { outbox.finish() }
        try await channel.executeThenClose { inbound, outbound in
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in frames {
                        try await outbound.write(frame)
                    }
                }
                do {
                    for try await frame in inbound {
                        guard await self.received(frame, from: id) else { break }
                    }
                } catch {}
                group.cancelAll()
            }
        }
        await self.closed(id)
    }

    // MARK: Connection events

    private func open(uri: String, outbox: AsyncStream<WebSocketFrame>.Continuation, channel: any Channel) -> Int {
        self.nextConnectionID += 1
        let id = self.nextConnectionID
        let socketID = "\(id).\(100_000 + id * 7_919)"
        let connection = Connection(id: id, socketID: socketID, requestURI: uri, isOpen: true, subscriptions: [], received: [])
        self.live[id] = Live(connection: connection, outbox: outbox, channel: channel)
        self.order.append(id)
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if !path.hasSuffix("/app/\(self.configuration.appKey)") {
            self.closeConnection(id, code: 4001, reason: "App key not in this cluster")
        } else if self.configuration.sendsConnectionEstablished {
            var payload = #"{"socket_id":"# + JSONWriter.quoted(socketID)
            if let timeout = self.configuration.activityTimeout { payload += #","activity_timeout":\#(timeout)"# }
            payload += "}"
            self.sendText(self.encode(PusherMessage(event: PusherEventName.connectionEstablished, data: payload)), to: id)
        }
        self.changed()
        return id
    }

    /// Handles one frame from a client; returns false when the connection is done.
    private func received(_ frame: WebSocketFrame, from id: Int) -> Bool {
        switch frame.opcode {
        case .text:
            let text = String(buffer: frame.unmaskedData)
            self.receivedText(text, from: id)
            return true
        case .ping:
            self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
            return true
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            self.live[id]?.connection.clientCloseCode = code
            if self.live[id]?.closingByServer == false {
                var reply = ByteBuffer()
                reply.write(webSocketErrorCode: .normalClosure)
                self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: reply))
            }
            self.live[id]?.outbox.finish()
            self.changed()
            return false
        default:
            return true
        }
    }

    private func receivedText(_ text: String, from id: Int) {
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
                self.subscribe(id, to: channel, auth: data?["auth"]?.stringValue, channelData: data?["channel_data"]?.stringValue)
            }
        case PusherEventName.unsubscribe:
            if let channel = (try? message.parsedData())?["channel"]?.stringValue {
                self.live[id]?.connection.subscriptions.remove(channel)
                self.leavePresence(channel, connection: id)
                self.sendSubscriptionCount(of: channel)
            }
        case PusherEventName.ping:
            if self.answersPings { self.sendText(OutboundMessage.pong, to: id) }
        case PusherEventName.signIn where self.configuration.answersSignIn:
            self.signIn(id, data: try? message.parsedData())
        default:
            if message.event.hasPrefix("client-") { self.relayClientEvent(message, from: id) }
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
            self.sendText(self.encode(PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: "{}")), to: id)
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
                self.sendError(message: "Invalid signature: Expected HMAC SHA256 hex digest of \(signed), but got \(got)", code: nil, to: id)
                return
            }
        }
        var data = "{}"
        if name.kind == .presence {
            guard let member = channelData.flatMap({ try? JSONValue(parsing: $0) }), let userID = member["user_id"]?.idValue else {
                self.sendError(message: "Invalid presence channel_data: a user_id is required", code: nil, to: id)
                return
            }
            data = self.joinPresence(channel, userID: userID, info: member["user_info"], connection: id)
        }
        self.live[id]?.connection.subscriptions.insert(channel)
        self.sendText(self.encode(PusherMessage(event: PusherEventName.subscriptionSucceeded, channel: channel, data: data)), to: id)
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

    /// `pusher:signin`: checks the signature of `socket_id::user::user_data`, confirms with
    /// `pusher:signin_success`, and tells watchers that the user is online.
    private func signIn(_ id: Int, data: JSONValue?) {
        guard let connection = self.live[id]?.connection else { return }
        guard let secret = self.configuration.appSecret else {
            self.sendError(message: "this fake server has no app secret to check sign-ins", code: nil, to: id)
            return
        }
        guard let auth = data?["auth"]?.stringValue, let userData = data?["user_data"]?.stringValue else {
            self.sendError(message: "Invalid sign-in: auth and user_data are required", code: nil, to: id)
            return
        }
        let expected = PusherSignature.userAuthentication(key: self.configuration.appKey, secret: secret, socketID: connection.socketID, userData: userData)
        guard auth == expected else {
            self.sendError(message: "Invalid signature: Expected HMAC SHA256 hex digest of \(connection.socketID)::user::\(userData)", code: nil, to: id)
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
        self.sendText(self.encode(PusherMessage(event: PusherEventName.signInSuccess, data: #"{"user_data":"# + JSONWriter.quoted(userData) + "}")), to: id)
        let online = watchlist.filter { self.onlineUsers.contains($0) && $0 != userID }
        if !online.isEmpty { self.sendWatchlist(status: "online", userIDs: online, to: [id]) }
        if !wasOnline { self.notifyWatchers(of: userID, status: "online") }
    }

    /// Users signed in on at least one open connection.
    private var onlineUsers: Set<String> {
        Set(self.live.values.filter(\.connection.isOpen).compactMap(\.connection.userID))
    }

    private func notifyWatchers(of userID: String, status: String) {
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

    /// Adds `connection` as `userID` on a presence channel; tells the others if the user is new.
    /// Returns the subscription's presence payload.
    private func joinPresence(_ channel: String, userID: String, info: JSONValue?, connection: Int) -> String {
        var members = self.presence[channel] ?? [:]
        let isNew = members[userID] == nil
        members[userID, default: (info, [])].connections.insert(connection)
        members[userID]?.info = info
        self.presence[channel] = members
        if isNew {
            var added = #"{"user_id":"# + JSONWriter.quoted(userID)
            if let info { added += #","user_info":"# + info.jsonText }
            let message = PusherMessage(event: PusherEventName.memberAdded, channel: channel, data: added + "}")
            for other in self.subscribers(of: channel) where other != connection { self.sendText(self.encode(message), to: other) }
        }
        let ids = members.keys.sorted()
        let hash = JSONValue.object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.info ?? .null) }))
        return #"{"presence":{"ids":"# + JSONValue.array(ids.map(JSONValue.string)).jsonText + #","hash":"# + hash.jsonText
            + #","count":\#(ids.count)}}"#
    }

    /// Removes `connection` from a presence channel; tells the others when the user's last connection left.
    private func leavePresence(_ channel: String, connection: Int) {
        guard var members = self.presence[channel] else { return }
        for (userID, member) in members where member.connections.contains(connection) {
            members[userID]?.connections.remove(connection)
            guard members[userID]?.connections.isEmpty == true else { continue }
            members[userID] = nil
            let message = PusherMessage(event: PusherEventName.memberRemoved, channel: channel, data: #"{"user_id":"# + JSONWriter.quoted(userID) + "}")
            for other in self.subscribers(of: channel) where other != connection { self.sendText(self.encode(message), to: other) }
        }
        self.presence[channel] = members
    }

    private func subscribers(of channel: String) -> [Int] {
        self.order.filter { self.live[$0]?.connection.isOpen == true && self.live[$0]?.connection.subscriptions.contains(channel) == true }
    }

    /// Relays a client event to the channel's other subscribers (never back to the sender), with the
    /// sender's `user_id` on presence channels; refuses it on other channels or when not subscribed.
    private func relayClientEvent(_ message: PusherMessage, from id: Int) {
        guard let channel = message.channel, self.live[id]?.connection.subscriptions.contains(channel) == true,
            channel.hasPrefix("private-") || channel.hasPrefix("presence-"), !channel.hasPrefix("private-encrypted-")
        else {
            self.sendError(message: "Client event rejected: not subscribed to a private or presence channel", code: nil, to: id)
            return
        }
        let userID = self.presence[channel]?.first { $0.value.connections.contains(id) }?.key
        let relayed = PusherMessage(event: message.event, channel: channel, data: message.data, userID: userID)
        for other in self.subscribers(of: channel) where other != id { self.sendText(relayed.serializedWithStringData, to: other) }
    }

    /// Tells every subscriber of `channel` how many connections are subscribed to it.
    private func sendSubscriptionCount(of channel: String) {
        guard self.configuration.sendsSubscriptionCounts, !channel.hasPrefix("presence-") else { return }
        let subscribers = self.subscribers(of: channel)
        let message = PusherMessage(event: PusherEventName.subscriptionCount, channel: channel, data: #"{"subscription_count":\#(subscribers.count)}"#)
        for id in subscribers { self.sendText(self.encode(message), to: id) }
    }

    private func closed(_ id: Int) {
        let channels = self.live[id]?.connection.subscriptions ?? []
        let userID = self.live[id]?.connection.userID
        self.live[id]?.connection.isOpen = false
        if let userID, !self.onlineUsers.contains(userID) { self.notifyWatchers(of: userID, status: "offline") }
        self.live[id]?.connection.subscriptions = []
        for channel in channels.sorted() {
            self.leavePresence(channel, connection: id)
            self.sendSubscriptionCount(of: channel)
        }
        self.changed()
    }

    // MARK: Acting as the server

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
        if channel.hasPrefix("private-encrypted-"), let secret = self.sharedSecret(for: channel),
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
    private func encode(_ message: PusherMessage) -> String {
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
        let text = #"{"event":"pusher:error","data":{"message":"# + JSONWriter.quoted(message) + #","code":\#(codeText)}}"#
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

    private func dropAll() {
        self.drop(nil)
    }

    private func targets(_ connection: Int?) -> [Int] {
        if let connection { return self.live[connection]?.connection.isOpen == true ? [connection] : [] }
        return self.order.filter { self.live[$0]?.connection.isOpen == true }
    }

    private func sendText(_ text: String, to id: Int) {
        self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
    }

    private func closeConnection(_ id: Int, code: Int, reason: String) {
        guard self.live[id]?.closingByServer == false else { return }
        self.live[id]?.closingByServer = true
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
        data.writeString(reason)
        self.live[id]?.outbox.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
    }

    // MARK: Inspecting

    /// The server's state now.
    public var snapshot: Snapshot {
        Snapshot(
            connections: self.order.compactMap { self.live[$0]?.connection },
            refusedConnections: self.refusedCount.withLockedValue { $0 },
            authRequests: self.authRequests
        )
    }

    /// Suspends until `condition` holds for the server's state, or the task is cancelled (bound it
    /// with a test time limit).
    public func waitUntil(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
        if condition(self.snapshot) { return }
        let signal = OneShotSignal()
        self.waiters.append(Waiter(condition: condition, signal: signal))
        await signal.wait()
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

    private func changed() {
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
