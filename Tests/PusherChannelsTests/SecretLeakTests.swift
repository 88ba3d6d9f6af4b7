// SPDX-License-Identifier: MIT

import Foundation
import Logging
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: every log line of the real stack counts, the WebSocket transport's included.
/// No secret (app secret, encryption master key, channels' shared secrets, auth header values)
/// appears in an error's description or in a log line at any level, whatever succeeds or fails
/// (the CLI's output: `CLISecretLeakTests` of PusherChannelsCLITests).
@Suite("Secrets never leak", .timeLimit(.minutes(1)))
struct SecretLeakTests {

    func logger(_ records: LogRecords) -> Logger {
        var logger = Logger(label: "secret-scan", factory: { _ in records.handler })
        logger.logLevel = .trace
        return logger
    }

    @Test(
        "signing with the app secret and the master key: subscriptions, encrypted events, sign-in, and their failures")
    func signing() async throws {
        let records = LogRecords()
        let observed = ObservedTexts()
        var sharedSecrets: [String] = []
        let configuration = FakePusherServer.Configuration(
            appSecret: PlantedSecrets.appSecret, encryptionMasterKey: PlantedSecrets.masterKey)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            var options = server.clientConfiguration()
            options.authorizer = .signing(
                key: server.appKey, secret: PlantedSecrets.appSecret, masterKey: PlantedSecrets.masterKey
            ) { _ in
                PresenceMember(userID: "member-1")
            }
            options.userAuthenticator = .signing(key: server.appKey, secret: PlantedSecrets.appSecret) {
                UserAuthenticator.userData(id: "member-1")
            }
            let client = PusherClient(
                key: server.appKey, configuration: options, clock: VirtualClock(), logger: self.logger(records))
            let observer = observed.observe(client)
            try await withRunningClient(client) { client in
                var decryptionFailures = client.decryptionFailures().makeAsyncIterator()
                async let received = collect(
                    client.events(on: ["private-a", "presence-b", "private-encrypted-c"]), count: 3)
                for channel in ["private-a", "presence-b", "private-encrypted-c"] {
                    await server.waitForSubscribers(of: channel)
                }
                sharedSecrets.append(try #require(await server.sharedSecret(for: "private-encrypted-c")))
                // A forged event on the encrypted channel: a decryption failure.
                await server.send(
                    raw:
                        #"{"event":"forged","channel":"private-encrypted-c","data":"{\"nonce\":\"AAAA\",\"ciphertext\":\"AAAA\"}"}"#
                )
                observed.append("\(try #require(await decryptionFailures.next()))")
                for channel in ["private-a", "presence-b", "private-encrypted-c"] {
                    await server.trigger(channel: channel, event: "e", data: "d")
                }
                #expect(try await received.count == 3)
                var states = client.userStates.makeAsyncIterator()
                try await client.signIn()
                while let state = await states.next(), state.user == nil {}
            }
            await observer.value

            // Signing without a presence member or a master key fails those channels.
            var bare = server.clientConfiguration()
            bare.authorizer = .signing(key: server.appKey, secret: PlantedSecrets.appSecret)
            let failing = PusherClient(
                key: server.appKey, configuration: bare, clock: VirtualClock(), logger: self.logger(records))
            let failures = observed.observe(failing)
            try await withRunningClient(failing) { client in
                for channel in ["presence-x", "private-encrypted-y"] {
                    do {
                        for try await _ in client.events(on: channel) {}
                    } catch {
                        observed.append(error)
                    }
                }
            }
            await failures.value
        }
        do {
            _ = try EncryptionMasterKey.sharedSecret(
                forChannel: "private-encrypted-c", masterKey: PlantedSecrets.shortMasterKey)
        } catch {
            observed.append(error)
        }
        #expect(observed.all.contains { $0.contains("authorizationFailed") })
        #expect(observed.all.contains { $0.contains("signedIn") })
        let rendered = records.all.map(\.rendered)
        #expect(!rendered.isEmpty)
        #expect(PlantedSecrets.leaks(in: observed.all, of: PlantedSecrets.all + sharedSecrets) == [])
        #expect(PlantedSecrets.leaks(in: rendered, of: PlantedSecrets.all + sharedSecrets) == [])
    }

    @Test("auth endpoints with an Authorization header: refused (403) and then accepted, channels and sign-in")
    func endpointsWithHeaders() async throws {
        let records = LogRecords()
        let observed = ObservedTexts()
        var sharedSecrets: [String] = []
        let configuration = FakePusherServer.Configuration(
            appSecret: PlantedSecrets.appSecret, encryptionMasterKey: PlantedSecrets.masterKey)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let headers = ["Authorization": "Bearer \(PlantedSecrets.headerToken)"]
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint, headers: headers)
            options.userAuthenticator = .endpoint(server.userAuthEndpoint, headers: headers)
            let client = PusherClient(
                key: server.appKey, configuration: options, clock: VirtualClock(), logger: self.logger(records))
            let observer = observed.observe(client)
            try await withRunningClient(client) { client in
                await server.setAuthEndpoint(.respond(status: 403, body: #"{"error":"forbidden"}"#))
                do {
                    for try await _ in client.events(on: "private-refused") {}
                } catch {
                    observed.append(error)
                }
                var userStates = client.userStates.makeAsyncIterator()
                try await client.signIn()
                observed.append(try #require(await UserTests.failure(&userStates)))

                await server.setAuthEndpoint(.sign)
                async let received = collect(client.events(on: ["private-ok", "private-encrypted-ok"]), count: 2)
                await server.waitForSubscribers(of: "private-ok")
                await server.waitForSubscribers(of: "private-encrypted-ok")
                sharedSecrets.append(try #require(await server.sharedSecret(for: "private-encrypted-ok")))
                await server.trigger(channel: "private-ok", event: "e", data: "d")
                await server.trigger(channel: "private-encrypted-ok", event: "e", data: "d")
                #expect(try await received.count == 2)
            }
            await observer.value
            let requests = await server.snapshot.authRequests
            #expect(requests.count >= 3)
            #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer \(PlantedSecrets.headerToken)" })
        }
        #expect(observed.all.contains { $0.contains("HTTP 403") })
        #expect(PlantedSecrets.leaks(in: observed.all, of: PlantedSecrets.all + sharedSecrets) == [])
        #expect(PlantedSecrets.leaks(in: records.all.map(\.rendered), of: PlantedSecrets.all + sharedSecrets) == [])
    }
}
