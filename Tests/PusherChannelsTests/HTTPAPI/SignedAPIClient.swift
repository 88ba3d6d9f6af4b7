// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PusherChannels
import PusherChannelsTesting

/// Signs Channels HTTP API requests as the protocol says (built on PusherCrypto, independent of the
/// server library) and sends them to a fake server over loopback.
struct SignedAPIClient {
    var host: String
    var port: Int
    var appID: String
    var key: String
    var secret: String

    init(_ server: FakePusherServer) {
        self.host = server.host
        self.port = server.port
        self.appID = server.appID
        self.key = server.appKey
        self.secret = server.appSecret ?? ""
    }

    /// Changes to make to a request after it is signed or while signing, to break it on purpose.
    struct Tampering {
        var timestampOffset = 0
        /// The body whose MD5 is sent (the real body is sent anyway).
        var md5Body: String?
        var extraQuery: [(String, String)] = []
    }

    /// Sends `method PATH` (relative to `/apps/ID/`) signed; returns the status and the body.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: String = "",
        tampering: Tampering = Tampering()
    ) async throws -> (status: Int, body: String) {
        let target = self.signedTarget(method, path, query: query, body: body, tampering: tampering)
        var request = HTTPClientRequest(url: "http://\(self.host):\(self.port)\(target)")
        request.method = method
        if method == .POST {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// The signed request target: `/apps/ID/PATH?query…&auth_signature=…`.
    func signedTarget(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: String = "",
        tampering: Tampering = Tampering()
    ) -> String {
        let fullPath = "/apps/\(self.appID)/\(path)"
        var parameters = query
        parameters.append(("auth_key", self.key))
        parameters.append(("auth_timestamp", String(Int(Date().timeIntervalSince1970) + tampering.timestampOffset)))
        parameters.append(("auth_version", "1.0"))
        parameters.append(("body_md5", MD5Digest.hex(Array((tampering.md5Body ?? body).utf8))))
        let signed = parameters.map { (name: $0.0.lowercased(), value: $0.1) }.sorted { $0.name < $1.name }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let signature = HMACSHA256.hex(key: self.secret, message: "\(method.rawValue)\n\(fullPath)\n\(signed)")
        parameters.append(("auth_signature", signature))
        parameters += tampering.extraQuery
        let queryText = parameters.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }
            .joined(separator: "&")
        return "\(fullPath)?\(queryText)"
    }

    /// Triggers `event` on `channels` with `data` (a JSON string inside the body, as the API wants).
    func trigger(
        _ channels: [String], event: String = "update", data: String, socketID: String? = nil, info: String? = nil,
        tampering: Tampering = Tampering()
    ) async throws -> (status: Int, body: String) {
        var body: [String: JSONValue] = [
            "name": .string(event), "channels": .array(channels.map(JSONValue.string)), "data": .string(data),
        ]
        if let socketID { body["socket_id"] = .string(socketID) }
        if let info { body["info"] = .string(info) }
        return try await self.send(.POST, "events", body: JSONValue.object(body).jsonText, tampering: tampering)
    }
}
