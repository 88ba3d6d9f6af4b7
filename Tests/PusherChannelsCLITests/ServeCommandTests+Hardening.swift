// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import PusherChannels
import PusherChannelsServer
import PusherTestSupport
import Testing

// What `serve` refuses, and that it keeps running: the defects of the audit, each driven from
// outside over the network.
extension ServeCommandTests {
    @Test("an auth_timestamp of Int.min gets 401 and serve keeps answering")
    func extremeTimestamp() async throws {
        let started = try await Self.start()
        for timestamp in ["-9223372036854775808", "9223372036854775807"] {
            var request = HTTPClientRequest(
                url: "http://127.0.0.1:\(started.port)/apps/\(Self.appID)/channels?auth_key=\(Self.key)"
                    + "&auth_timestamp=\(timestamp)&auth_version=1.0&auth_signature=0")
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status == .unauthorized)
            let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
            #expect(body.contains("Timestamp expired"), "\(body)")
        }
        // Still running: a signed query answers.
        let channels = try await Self.publisher(port: started.port).channels()
        #expect(channels.channels.isEmpty)
        await Self.stop(started)
    }

    @Test("the auth endpoints are off unless --auth-endpoints turns them on")
    func authEndpointsOff() async throws {
        let form = "socket_id=1.2&channel_name=private-payroll"
        let started = try await Self.start()
        #expect(try await Self.post(form, to: "/pusher/auth", port: started.port).status == .notFound)
        #expect(
            try await Self.post("socket_id=1.2&user_id=admin", to: "/pusher/user-auth", port: started.port).status
                == .notFound)
        await Self.stop(started)
        let enabled = try await Self.start(["--key", Self.key, "--secret", Self.secret, "--auth-endpoints"])
        let (status, body) = try await Self.post(form, to: "/pusher/auth", port: enabled.port)
        #expect(status == .ok)
        #expect(body.contains(#""auth":"serve-key:"#))
        await Self.stop(enabled)
    }

    @Test("a message in two fragments is joined (RFC 6455 §5.4)")
    func fragments() async throws {
        let started = try await Self.start()
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            let message = Array(Self.subscribe("chat").utf8)
            try await socket.send(
                frame: WebSocketFrame(
                    fin: false, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: message[..<10])))
            try await socket.send(
                frame: WebSocketFrame(
                    fin: true, opcode: .continuation, maskKey: .random(), data: ByteBuffer(bytes: message[10...])))
            // Answered before the ping that follows: the next text is the subscription's.
            try await socket.send(#"{"event":"pusher:ping","data":{}}"#)
            let next = try await socket.nextText()
            #expect(next?.contains("pusher_internal:subscription_succeeded") == true, "\(String(describing: next))")
        }
        await Self.stop(started)
    }

    @Test("an unmasked client frame closes with 1002")
    func unmasked() async throws {
        let started = try await Self.start()
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            try await socket.send(
                frame: WebSocketFrame(fin: true, opcode: .ping, maskKey: nil, data: ByteBuffer(string: "x")))
            // Sent in case the server read on; it may have closed the socket already, which is fine.
            try? await socket.send(#"{"event":"pusher:ping","data":{}}"#)
            #expect(try await socket.next() == .close(code: 1002))
        }
        await Self.stop(started)
    }

    @Test("invalid UTF-8 in a text frame closes with 1007; the log says so, with every frame at debug")
    func invalidUTF8() async throws {
        let started = try await Self.start(["--key", Self.key, "--secret", Self.secret, "--log-level", "debug"])
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            try await socket.send(Self.subscribe("chat"))
            _ = try await socket.next(event: "pusher_internal:subscription_succeeded")
            let invalid: [UInt8] = Array(#"{"event":"pusher:ping","data":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
            try await socket.send(
                frame: WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: invalid)))
            #expect(try await socket.next() == .close(code: 1007))
        }
        // The log tells of each connection and refusal, with the socket id and the close code.
        await started.cli.waitForStandardError(containing: "a text frame that is not UTF-8")
        #expect(started.cli.standardError.contains(": connected ("))
        #expect(started.cli.standardError.contains("pusher:subscribe"))
        await Self.stop(started)
    }

    @Test("an Origin not in --allowed-origin gets 403; an allowed one and none connect")
    func allowedOrigins() async throws {
        let started = try await Self.start(
            ["--key", Self.key, "--secret", Self.secret, "--allowed-origin", "http://localhost:3000"])
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(started.port)\(Self.path)")
        request.headers.add(name: "Upgrade", value: "websocket")
        request.headers.add(name: "Connection", value: "Upgrade")
        request.headers.add(name: "Sec-WebSocket-Version", value: "13")
        request.headers.add(name: "Sec-WebSocket-Key", value: "dGhlIHNhbXBsZSBub25jZQ==")
        request.headers.add(name: "Origin", value: "https://evil.example")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        #expect(response.status == .forbidden)
        let established = try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            try await socket.next(event: "pusher:connection_established")
        }
        #expect(established != nil)
        await Self.stop(started)
    }

    @Test("--webhook-url's error does not repeat the URL's password")
    func webhookURLRedacted() async throws {
        let cli = try CLIProcess(["serve", "--port", "0", "--webhook-url", "ftp://user:hunter2@example.com/hook"])
        #expect(await cli.exitStatus() == 2)
        #expect(cli.standardError.contains("--webhook-url"))
        #expect(!cli.standardError.contains("hunter2"))
    }

    /// POSTs a form to `path`; returns the status and the body.
    static func post(_ form: String, to path: String, port: Int) async throws -> (
        status: HTTPResponseStatus, body: String
    ) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return (response.status, String(buffer: try await response.body.collect(upTo: 1 << 16)))
    }
}
