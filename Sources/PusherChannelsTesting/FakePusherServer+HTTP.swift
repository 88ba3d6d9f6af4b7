// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import PusherChannels
import PusherServerEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The HTTP auth endpoints: channel authorization and user authentication (HTTPS in the TLS mode,
// with the test certificate authority's certificate).
extension FakePusherServer {
    /// The user-auth endpoint this server serves: `http://127.0.0.1:PORT/pusher/user-auth`
    /// (`https` in the TLS mode). It signs `{"id":"user-<socket id>"}`, or the
    /// `user_id` form field when one is sent.
    public nonisolated var userAuthEndpoint: URL {
        // The host and port are always valid here.
        URL(string: "\(self.httpScheme)://\(self.host):\(self.port)/pusher/user-auth")!
    }

    /// The auth endpoint this server serves: `http://127.0.0.1:PORT/pusher/auth` (`https` in the
    /// TLS mode).
    public nonisolated var authEndpoint: URL {
        // The host and port are always valid here.
        URL(string: "\(self.httpScheme)://\(self.host):\(self.port)/pusher/auth")!
    }

    private nonisolated var httpScheme: String { self.configuration.tls == nil ? "http" : "https" }

    /// Sets how the auth endpoint answers from now on.
    public func setAuthEndpoint(_ behavior: AuthEndpointBehavior) {
        self.authEndpointBehavior = behavior
    }

    /// Plain HTTP: the HTTP API and the auth endpoints (when served); a refused WebSocket upgrade
    /// gets 403 (its `Origin`) or 503 (``refuseConnections(_:)``, every WebSocket slot taken),
    /// anything else 404. Each
    /// request must arrive whole within ``Limits/handshakeTimeout`` (as must the next one on a
    /// kept-alive connection), its body within ``Limits/requestBytes`` (413 otherwise).
    nonisolated func serveHTTP(
        _ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, refusal: OpenChannels.Refusal?
    ) async throws {
        let limits = self.configuration.limits
        let timeout = limits.handshakeTimeAmount
        let connection = channel.channel
        var deadline = connection.eventLoop.scheduleTask(in: timeout) { connection.close(promise: nil) }
        defer { deadline.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead): head = requestHead
                case .body(var chunk):
                    guard body.readableBytes + chunk.readableBytes <= limits.requestBytes else {
                        let text = #"{"error":"Request too large"}"#
                        try await outbound.write(contentsOf: Self.response(.payloadTooLarge, text, keepAlive: false))
                        return
                    }
                    body.writeBuffer(&chunk)
                case .end: break
                }
                guard case .end = part else { continue }
                deadline.cancel()
                var status = HTTPResponseStatus.serviceUnavailable
                var text = ""
                let servesAuth = self.configuration.servesAuthEndpoints
                if let head, servesAuth, head.method == .POST, head.uri.hasPrefix("/pusher/auth") {
                    (status, text) = await self.authorize(head: head, body: String(buffer: body))
                } else if let head, servesAuth, head.method == .POST, head.uri.hasPrefix("/pusher/user-auth") {
                    (status, text) = await self.authenticateUser(head: head, body: String(buffer: body))
                } else if let head, Self.isAPIRequest(head) {
                    (status, text) = await self.serveAPI(
                        method: head.method, uri: head.uri, body: Array(body.readableBytesView))
                } else if let refusal {
                    // A refused WebSocket upgrade (its request head went to the upgrader).
                    (status, text) =
                        refusal == .origin
                        ? (.forbidden, #"{"error":"Origin not allowed"}"#)
                        : (.serviceUnavailable, #"{"error":"Not accepting WebSocket connections now"}"#)
                    await self.log(.info, "WebSocket upgrade refused: \(status.code) \(text)")
                } else if head != nil {
                    (status, text) = (.notFound, #"{"error":"Not found"}"#)
                }
                if status.code >= 400, refusal == nil, let head {
                    await self.logRefusal(head, status: status, text: text)
                }
                // HTTP API requests may keep the connection for the next one (a pooled client).
                let keepAlive = head.map { Self.isAPIRequest($0) && $0.isKeepAlive } ?? false
                try await outbound.write(contentsOf: Self.response(status, text, keepAlive: keepAlive))
                guard keepAlive else { return }
                deadline = connection.eventLoop.scheduleTask(in: timeout) { connection.close(promise: nil) }
                head = nil
                body.clear()
            }
        }
    }

    private func logRefusal(_ head: HTTPRequestHead, status: HTTPResponseStatus, text: String) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        self.log(
            .info,
            "\(head.method) \(ServerEngine.escaped(path)): \(status.code) \(ServerEngine.escaped(text))")
    }

    /// A request to the HTTP API: under `/apps/`, or `/users/` (see ``serveAPI(method:uri:body:)``).
    private static func isAPIRequest(_ head: HTTPRequestHead) -> Bool {
        head.uri.hasPrefix("/apps/") || head.uri.hasPrefix(Self.rootUsersPrefix)
    }

    /// The parts of a JSON response.
    private static func response(_ status: HTTPResponseStatus, _ text: String, keepAlive: Bool)
        -> [HTTPServerResponsePart]
    {
        let headers: HTTPHeaders = [
            "Content-Type": "application/json", "Content-Length": "\(text.utf8.count)",
            "Connection": keepAlive ? "keep-alive" : "close",
        ]
        return [
            .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
            .body(.byteBuffer(ByteBuffer(string: text))),
            .end(nil),
        ]
    }

    /// Records a request to one of the auth endpoints; returns its form fields.
    private func recordAuthRequest(head: HTTPRequestHead, body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                PercentEncoding.decode($0, plusAsSpace: true) ?? String($0)
            }
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
        if case .respond(let status, let text) = self.authEndpointBehavior {
            return (HTTPResponseStatus(statusCode: status), text)
        }
        guard let secret = self.configuration.appSecret, let socketID = fields["socket_id"] else {
            return (.forbidden, #"{"error":"cannot sign"}"#)
        }
        let userData = #"{"id":"# + JSONWriter.quoted(fields["user_id"] ?? "user-\(socketID)") + "}"
        let auth = PusherSignature.userAuthentication(
            key: self.configuration.appKey, secret: secret, socketID: socketID, userData: userData)
        return (.ok, #"{"auth":"# + JSONWriter.quoted(auth) + #","user_data":"# + JSONWriter.quoted(userData) + "}")
    }

    private func authorize(head: HTTPRequestHead, body: String) -> (HTTPResponseStatus, String) {
        let fields = self.recordAuthRequest(head: head, body: body)
        switch self.authEndpointBehavior {
        case .respond(let status, let text):
            return (HTTPResponseStatus(statusCode: status), text)
        case .sign:
            guard let secret = self.configuration.appSecret, let socketID = fields["socket_id"],
                let channel = fields["channel_name"]
            else {
                return (.forbidden, #"{"error":"cannot sign"}"#)
            }
            let channelData =
                ChannelName.kind(of: channel) == .presence
                ? #"{"user_id":"# + JSONWriter.quoted("user-\(socketID)") + "}" : nil
            let authorization = PusherSignature.channelAuthorization(
                key: self.configuration.appKey, secret: secret, socketID: socketID, channel: channel,
                channelData: channelData
            )
            var text = #"{"auth":"# + JSONWriter.quoted(authorization.auth)
            if let channelData { text += #","channel_data":"# + JSONWriter.quoted(channelData) }
            if ChannelName.kind(of: channel) == .privateEncrypted {
                guard let secret = self.sharedSecret(for: channel) else {
                    return (.forbidden, #"{"error":"no encryption master key"}"#)
                }
                text += #","shared_secret":"# + JSONWriter.quoted(secret)
            }
            return (.ok, text + "}")
        }
    }
}
