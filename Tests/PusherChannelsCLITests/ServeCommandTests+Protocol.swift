// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PusherChannels
import PusherChannelsServer
import PusherTestSupport
import Testing

// `serve`'s WebSocket side, read on the wire.
extension ServeCommandTests {
    @Test(
        "a wrong subscription auth: pusher:subscription_error (AuthError, 401), the connection stays open"
    )
    func subscriptionAuth() async throws {
        let started = try await Self.start()
        let pusher = try Self.publisher(port: started.port)
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            let socketID = try Self.socketID(try await socket.next(event: "pusher:connection_established"))
            try await socket.send(Self.subscribe("private-a", auth: Self.auth(socketID, "private-a", secret: "wrong")))
            let refused = try #require(try await socket.nextText())
            let message = try JSONValue(parsing: refused)
            #expect(message["event"]?.stringValue == "pusher:subscription_error")
            #expect(message["channel"]?.stringValue == "private-a")
            let data = try JSONValue(parsing: try #require(message["data"]?.stringValue))
            #expect(data["type"]?.stringValue == "AuthError")
            #expect(data["status"]?.intValue == 401)
            #expect(data["error"]?.stringValue?.isEmpty == false)
            // Still open: the same connection subscribes with the right auth and receives an event.
            try await socket.send(Self.subscribe("private-a", auth: Self.auth(socketID, "private-a")))
            #expect(try await socket.next(event: "pusher_internal:subscription_succeeded") != nil)
            _ = try await pusher.trigger(channels: ["private-a"], event: "news", data: #"{"n":1}"#)
            let event = try #require(try await socket.next(event: "news"))
            #expect(event == #"{"event":"news","channel":"private-a","data":"{\"n\":1}"}"#)
        }
        await Self.stop(started)
    }

    @Test(
        "client events reach the other members only, data byte for byte, user_id on presence; not on public"
    )
    func clientEvents() async throws {
        let started = try await Self.start()
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { first in
            try await RawWebSocket.withConnection(port: started.port, path: Self.path) { second in
                let firstID = try Self.socketID(try await first.next(event: "pusher:connection_established"))
                let secondID = try Self.socketID(try await second.next(event: "pusher:connection_established"))
                let member = #"{"user_id":"u1"}"#
                try await first.send(
                    Self.subscribe(
                        "presence-room", auth: Self.auth(firstID, "presence-room", channelData: member),
                        channelData: member))
                #expect(try await first.next(event: "pusher_internal:subscription_succeeded") != nil)
                try await second.send(
                    Self.subscribe(
                        "presence-room", auth: Self.auth(secondID, "presence-room", channelData: #"{"user_id":"u2"}"#),
                        channelData: #"{"user_id":"u2"}"#))
                #expect(try await second.next(event: "pusher_internal:subscription_succeeded") != nil)
                #expect(try await first.next(event: "pusher_internal:member_added") != nil)
                // Unusual spacing and escapes survive: the data is relayed as the sender wrote it.
                let object = #"{ "text" : "caf\u00e9",  "n":1.50 }"#
                try await first.send(#"{"event":"client-note","channel":"presence-room","data":\#(object)}"#)
                let relayed = try #require(try await second.next(event: "client-note"))
                #expect(
                    relayed == #"{"event":"client-note","channel":"presence-room","data":\#(object),"user_id":"u1"}"#)
                try await first.send(#"{"event":"client-note","channel":"presence-room","data":"plain \"text\""}"#)
                let string = try #require(try await second.next(event: "client-note"))
                #expect(try JSONValue(parsing: string)["data"]?.stringValue == #"plain "text""#)
                // Never back to the sender: the next frame the sender gets is the answer to its ping.
                try await first.send(#"{"event":"pusher:ping","data":{}}"#)
                let next = try #require(try await first.nextText())
                #expect(try JSONValue(parsing: next)["event"]?.stringValue == "pusher:pong", "got \(next)")
                // A public channel refuses client events.
                try await first.send(Self.subscribe("public-room"))
                #expect(try await first.next(event: "pusher_internal:subscription_succeeded") != nil)
                try await first.send(#"{"event":"client-note","channel":"public-room","data":{}}"#)
                #expect(try await first.next(event: "pusher:error") != nil)
            }
        }
        await Self.stop(started)
    }

    @Test("an unknown app key gets one pusher:error with code 4001, then a close with 4001")
    func unknownKey() async throws {
        let started = try await Self.start()
        try await RawWebSocket.withConnection(port: started.port, path: "/app/other-key?protocol=7") { socket in
            let error = try JSONValue(parsing: try #require(try await socket.nextText()))
            #expect(error["event"]?.stringValue == "pusher:error")
            #expect(error["data"]?["code"]?.intValue == 4001)
            #expect(try await socket.next() == .close(code: 4001))
        }
        await Self.stop(started)
    }

    @Test(
        "sign-in: bad → pusher:error 4009; good → #server-to-user-ID, sendToUser, terminateConnections closes 4009"
    )
    func signIn() async throws {
        let started = try await Self.start()
        let pusher = try Self.publisher(port: started.port)
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            let socketID = try Self.socketID(try await socket.next(event: "pusher:connection_established"))
            let userData = #"{"id":"carol"}"#
            func signIn(secret: String) -> String {
                let auth = PusherSignature.userAuthentication(
                    key: Self.key, secret: secret, socketID: socketID, userData: userData)
                return JSONValue.object([
                    "event": "pusher:signin", "data": .object(["auth": .string(auth), "user_data": .string(userData)]),
                ]).jsonText
            }
            try await socket.send(signIn(secret: "wrong"))
            let refused = try JSONValue(parsing: try #require(try await socket.nextText()))
            #expect(refused["event"]?.stringValue == "pusher:error")
            #expect(refused["data"]?["code"]?.intValue == 4009)
            try await socket.send(signIn(secret: Self.secret))
            #expect(try await socket.next(event: "pusher:signin_success") != nil)
            try await socket.send(Self.subscribe("#server-to-user-carol"))
            #expect(try await socket.next(event: "pusher_internal:subscription_succeeded") != nil)
            try await pusher.sendToUser("carol", event: "note", data: "hello")
            let note = try #require(try await socket.next(event: "note"))
            #expect(try JSONValue(parsing: note)["data"]?.stringValue == "hello")
            try await pusher.terminateConnections(ofUser: "carol")
            var frame = try await socket.next()
            while case .text = frame { frame = try await socket.next() }
            #expect(frame == .close(code: 4009))
        }
        await Self.stop(started)
    }

    @Test("a cache channel's new subscriber gets pusher:cache_miss, then, once an event was sent, that event")
    func cacheChannel() async throws {
        let started = try await Self.start()
        let pusher = try Self.publisher(port: started.port)
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            try await socket.send(Self.subscribe("cache-prices"))
            #expect(try await socket.next(event: "pusher_internal:subscription_succeeded") != nil)
            let miss = try #require(try await socket.nextText())
            #expect(try JSONValue(parsing: miss)["event"]?.stringValue == "pusher:cache_miss")
            _ = try await pusher.trigger(channels: ["cache-prices"], event: "price", data: "9")
            #expect(try await socket.next(event: "price") != nil)
        }
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            try await socket.send(Self.subscribe("cache-prices"))
            #expect(try await socket.next(event: "pusher_internal:subscription_succeeded") != nil)
            let cached = try #require(try await socket.nextText())
            #expect(cached == #"{"event":"price","channel":"cache-prices","data":"9"}"#)
        }
        await Self.stop(started)
    }

    @Test("terminate_connections at /users/ID/… (pusher-http-python 3.3.4's path), signed, closes with 4009")
    func terminateAtRootPath() async throws {
        let started = try await Self.start()
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            let socketID = try Self.socketID(try await socket.next(event: "pusher:connection_established"))
            let userData = #"{"id":"dave"}"#
            let auth = PusherSignature.userAuthentication(
                key: Self.key, secret: Self.secret, socketID: socketID, userData: userData)
            try await socket.send(
                JSONValue.object([
                    "event": "pusher:signin", "data": .object(["auth": .string(auth), "user_data": .string(userData)]),
                ]).jsonText)
            #expect(try await socket.next(event: "pusher:signin_success") != nil)
            let path = "/users/dave/terminate_connections"
            let body = "{}"
            var query =
                "auth_key=\(Self.key)&auth_timestamp=\(Int(Date().timeIntervalSince1970))&auth_version=1.0"
                + "&body_md5=\(MD5Digest.hex(Array(body.utf8)))"
            query += "&auth_signature=" + HMACSHA256.hex(key: Self.secret, message: "POST\n\(path)\n\(query)")
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(started.port)\(path)?\(query)")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 200)
            var frame = try await socket.next()
            while case .text = frame { frame = try await socket.next() }
            #expect(frame == .close(code: 4009))
        }
        await Self.stop(started)
    }
}
