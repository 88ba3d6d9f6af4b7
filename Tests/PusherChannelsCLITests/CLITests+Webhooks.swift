// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PusherChannels
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `pusher-channels webhooks`.
extension CLITests {
    static let webhookKey = "hook-key"

    /// Starts `webhooks` on a free port; returns the process and the port it printed.
    func startWebhooks(_ extra: [String] = []) async throws -> (CLIProcess, Int) {
        let cli = try CLIProcess(
            ["webhooks", "--port", "0", "--key", Self.webhookKey, "--secret", Self.secret] + extra)
        await cli.waitForStandardError(containing: "\n")
        let line = cli.standardError.split(separator: "\n").first { $0.contains("listening on 127.0.0.1:") }
        let port = try #require(line.flatMap { $0.split(separator: ":").last.flatMap { Int($0) } })
        return (cli, port)
    }

    /// POSTs `body` signed with `secret` (`signature` replaces the signature) to `port`; returns the status.
    func postWebhook(
        port: Int, path: String = "/pusher/webhooks", body: String, key: String = CLITests.webhookKey,
        secret: String = CLITests.secret, signature: String? = nil, method: HTTPMethod = .POST
    ) async throws -> UInt {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "X-Pusher-Key", value: key)
        request.headers.add(
            name: "X-Pusher-Signature", value: signature ?? HMACSHA256.hex(key: secret, message: body))
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return response.status.code
    }

    @Test(
        "webhooks prints each event as one JSON line with time_ms, encrypted client events decrypted; exits 0 on SIGTERM"
    )
    func webhooksPrintEvents() async throws {
        let (cli, port) = try await self.startWebhooks(["--master-key", Self.masterKey])
        let channelKey = EncryptionMasterKey.channelKey(
            forChannel: "private-encrypted-vault", masterKey: EncryptionMasterKey.bytes(ofMasterKey: Self.masterKey)!)
        let sealed = try #require(EncryptedPayload.seal(#"{"secret":"opened"}"#, key: channelKey))
        let body = """
            {"time_ms": 1700000000123, "events": [
              {"name": "channel_occupied", "channel": "news"},
              {"name": "client_event", "channel": "private-encrypted-vault", "event": "client-note",
               "data": \(JSONValue.string(sealed).jsonText), "socket_id": "1.2", "user_id": "u1"},
              {"name": "brand_new", "channel": "news", "extra": [1, 2.50]}
            ]}
            """
        #expect(try await self.postWebhook(port: port, path: "/any/path?x=1", body: body) == 200)
        // The lines were written before the answer; all of them have been read once the process ended.
        cli.send(signal: SIGTERM)
        #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        #expect(
            cli.standardOutputLines == [
                #"{"channel":"news","name":"channel_occupied","time_ms":1700000000123}"#,
                #"{"channel":"private-encrypted-vault","data":"{\"secret\":\"opened\"}","event":"client-note","name":"client_event","socket_id":"1.2","time_ms":1700000000123,"user_id":"u1"}"#,
                #"{"channel":"news","extra":[1,2.50],"name":"brand_new","time_ms":1700000000123}"#,
            ], "stderr: \(cli.standardError)")
        #expect(!cli.standardError.contains(Self.secret) && !cli.standardError.contains(Self.masterKey))
    }

    @Test("webhooks answers 401 to an invalid signature or an unknown key: a line on stderr, nothing on stdout")
    func webhooksRejectInvalidSignatures() async throws {
        let (cli, port) = try await self.startWebhooks()
        let body = #"{"time_ms":1,"events":[{"name":"channel_vacated","channel":"news"}]}"#
        let tampered = body.replacingOccurrences(of: "news", with: "newz")
        let signature = HMACSHA256.hex(key: Self.secret, message: body)
        #expect(try await self.postWebhook(port: port, body: tampered, signature: signature) == 401)
        #expect(try await self.postWebhook(port: port, body: body, secret: "wrong-secret") == 401)
        #expect(try await self.postWebhook(port: port, body: body, key: "other-key") == 401)
        #expect(try await self.postWebhook(port: port, body: body, method: .GET) == 405)
        let unsignedJunk = "not json"
        #expect(try await self.postWebhook(port: port, body: unsignedJunk) == 400)
        // A valid one afterwards still goes through: the rejected ones printed nothing.
        #expect(try await self.postWebhook(port: port, body: body) == 200)
        cli.send(signal: SIGINT)
        #expect(await cli.exitStatus() == 0)
        #expect(cli.standardOutputLines == [#"{"channel":"news","name":"channel_vacated","time_ms":1}"#])
        let rejections = cli.standardError.split(separator: "\n").filter { $0.hasPrefix("webhooks: 401 ") }
        #expect(rejections.count == 3, "stderr: \(cli.standardError)")
    }

    @Test(
        "webhooks: usage errors exit 2 with one line on standard error",
        arguments: [
            (["--port", "0", "--key", "k"], "PUSHER_SECRET"),
            (["--port", "70000", "--key", "k", "--secret", "s"], "--port"),
            (["--port", "0", "--key", "k", "--secret", "s", "--master-key", "c2hvcnQ="], "32 bytes"),
            (["--key", "k", "--secret", "s"], "--port"),
        ])
    func webhooksUsageErrors(arguments: [String], message: String) async throws {
        let cli = try await self.run(["webhooks"] + arguments)
        #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
        #expect(cli.standardError.split(separator: "\n").count == 1, "stderr: \(cli.standardError)")
    }
}
