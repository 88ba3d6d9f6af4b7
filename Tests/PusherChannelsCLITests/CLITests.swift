// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// Loopback: the CLI runs as its own process, which reaches the fake server only through sockets.
@Suite("Command-line client", .timeLimit(.minutes(1)))
struct CLITests {
    static let secret = "cli-secret"

    func connectionArguments(_ server: FakePusherServer) -> [String] {
        ["listen", "--key", server.appKey, "--host", server.host, "--port", "\(server.port)", "--no-tls"]
    }

    @Test("--secret signs a presence channel: snapshot line, client events from stdin, events, exit 0 after --count")
    func presenceWithSecret() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--secret", Self.secret, "--user-id", "cli-user", "--user-info", #"{"name":"CLI"}"#,
                    "--channel", "presence-room", "--event", "server-note", "--count", "1",
                ]
            )
            var output = cli.lines.makeAsyncIterator()
            let snapshot = await output.next()
            #expect(
                snapshot
                    == #"{"channel":"presence-room","presence":"snapshot","members":[{"user_id":"cli-user","user_info":{"name":"CLI"}}],"me":"cli-user"}"#
            )
            await server.waitForSubscribers(of: "presence-room")
            cli.send(line: #"presence-room client-hello {"text":"hi there"}"#)
            let relayed = await server.waitForMessages(named: "client-hello")
            #expect(try relayed.first?.message?.parsedData()["text"]?.stringValue == "hi there")
            await server.trigger(channel: "presence-room", event: "server-note", data: #"{"n":1}"#)
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError) stdout: \(cli.standardOutputLines)")
            let lines = cli.standardOutputLines
            #expect(
                lines == [
                    #"{"channel":"presence-room","presence":"snapshot","members":[{"user_id":"cli-user","user_info":{"name":"CLI"}}],"me":"cli-user"}"#,
                    #"{"channel":"presence-room","event":"server-note","data":"{\"n\":1}"}"#,
                ]
            )
            let subscribe = await server.snapshot.messages(named: "pusher:subscribe").first?.message
            #expect(
                try subscribe?.parsedData()["channel_data"]?.stringValue
                    == #"{"user_id":"cli-user","user_info":{"name":"CLI"}}"#)
        }
    }

    @Test("--auth-endpoint with --auth-header authorizes a private channel over HTTP")
    func privateWithAuthEndpoint() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString, "--auth-header",
                    "Authorization: Bearer token-1",
                    "--channel", "private-orders", "--count", "1",
                ]
            )
            await server.waitForSubscribers(of: "private-orders")
            await server.trigger(channel: "private-orders", event: "created", data: "order-9")
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError) stdout: \(cli.standardOutputLines)")
            #expect(cli.standardOutputLines == [#"{"channel":"private-orders","event":"created","data":"order-9"}"#])
            let requests = await server.snapshot.authRequests
            #expect(requests.count == 1)
            #expect(requests.first?.headers["authorization"] == "Bearer token-1")
            #expect(requests.first?.fields["channel_name"] == "private-orders")
        }
    }

    @Test("a private channel without --secret or --auth-endpoint fails that channel; the CLI says why")
    func privateWithoutAuthorization() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "private-orders"])
            let status = await cli.exitStatus()
            #expect(status == 3)
            #expect(cli.standardError.contains("authorizationRequired"))
        }
    }

    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test("--secret with --master-key prints decrypted data; a forged event goes to stderr as a decryption failure")
    func encryptedChannel() async throws {
        let configuration = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--secret", Self.secret, "--master-key", Self.masterKey, "--channel", "private-encrypted-orders",
                    "--count", "1",
                ]
            )
            await server.waitForSubscribers(of: "private-encrypted-orders")
            await server.send(
                raw:
                    #"{"event":"forged","channel":"private-encrypted-orders","data":"{\"nonce\":\"AAAA\",\"ciphertext\":\"AAAA\"}"}"#
            )
            await server.trigger(channel: "private-encrypted-orders", event: "created", data: #"{"id":3}"#)
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardOutputLines == [
                    #"{"channel":"private-encrypted-orders","event":"created","data":"{\"id\":3}"}"#
                ])
            #expect(
                cli.standardError.contains("decryption failure: malformedPayload on private-encrypted-orders (forged)"))
        }
    }

    @Test("--sign-in prints the user's events and watchlist changes as JSON lines, as they arrive")
    func signIn() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--secret", Self.secret, "--user-id", "cli-user", "--watch", "friend", "--sign-in", "--count", "1",
                ]
            )
            var output = cli.lines.makeAsyncIterator()
            await server.waitForSubscribers(of: "#server-to-user-cli-user")
            var options = server.clientConfiguration()
            options.userAuthenticator = .signing(key: server.appKey, secret: Self.secret) {
                UserAuthenticator.userData(id: "friend")
            }
            try await withRunningClient(PusherClient(key: server.appKey, configuration: options)) { friend in
                try await friend.signIn()
                let online = await output.next()
                #expect(online == #"{"watchlist":"online","user_id":"friend"}"#)
            }
            let offline = await output.next()
            #expect(offline == #"{"watchlist":"offline","user_id":"friend"}"#)
            await server.sendToUser("cli-user", event: "invoice", data: "paid")
            let event = await output.next()
            #expect(event == ##"{"channel":"#server-to-user-cli-user","event":"invoice","data":"paid"}"##)
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines.count == 3)
        }
    }
}
