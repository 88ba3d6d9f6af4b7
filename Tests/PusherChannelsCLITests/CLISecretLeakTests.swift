// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// No secret (app secret, encryption master key, channels' shared secrets, auth header values)
/// appears in the command-line client's standard output or standard error, whatever succeeds or
/// fails (the library's side: `SecretLeakTests` of PusherChannelsTests).
@Suite("Secrets never leak from the command-line client", .timeLimit(.minutes(1)))
struct CLISecretLeakTests {

    func listen(_ server: FakePusherServer) -> [String] {
        ["listen", "--key", server.appKey, "--host", server.host, "--port", "\(server.port)", "--no-tls"]
    }

    /// Standard output and standard error of a finished `cli`, each line.
    func output(_ cli: CLIProcess) -> [String] {
        cli.standardOutputLines + cli.standardError.split(separator: "\n").map(String.init)
    }

    @Test("pusher-channels listen: signing, encrypted channels, sign-in, failures and usage errors print no secret")
    func commandLine() async throws {
        var printed: [String] = []
        var sharedSecrets: [String] = []
        let configuration = FakePusherServer.Configuration(
            appSecret: PlantedSecrets.appSecret, encryptionMasterKey: PlantedSecrets.masterKey)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            // Signing in-process: a presence and an encrypted channel, a forged event, sign-in.
            let signing = try CLIProcess(
                self.listen(server) + [
                    "--secret", PlantedSecrets.appSecret, "--master-key", PlantedSecrets.masterKey, "--user-id", "u1",
                    "--sign-in",
                    "--channel", "presence-b", "--channel", "private-encrypted-c",
                ]
            )
            await server.waitForSubscribers(of: "presence-b")
            await server.waitForSubscribers(of: "private-encrypted-c")
            await server.waitForSubscribers(of: "#server-to-user-u1")
            sharedSecrets.append(try #require(await server.sharedSecret(for: "private-encrypted-c")))
            await server.send(
                raw:
                    #"{"event":"forged","channel":"private-encrypted-c","data":"{\"nonce\":\"AAAA\",\"ciphertext\":\"AAAA\"}"}"#
            )
            await server.trigger(channel: "private-encrypted-c", event: "sealed", data: "opened")
            await signing.waitForStandardError(containing: "decryption failure")
            signing.send(signal: SIGINT)
            #expect(await signing.exitStatus() == 0)
            #expect(
                signing.standardOutputLines.contains(
                    #"{"channel":"private-encrypted-c","event":"sealed","data":"opened"}"#))
            printed += self.output(signing)

            // Signing without the master key, from the environment: the encrypted channel fails.
            let noKey = try CLIProcess(
                self.listen(server) + ["--channel", "private-encrypted-d"],
                environment: ["PUSHER_SECRET": PlantedSecrets.appSecret])
            #expect(await noKey.exitStatus() == 3)
            printed += self.output(noKey)

            // Auth endpoints with an Authorization header: refused, then accepted.
            let header = ["--auth-header", "Authorization: Bearer \(PlantedSecrets.headerToken)"]
            await server.setAuthEndpoint(.respond(status: 403, body: #"{"error":"forbidden"}"#))
            let refused = try CLIProcess(
                self.listen(server) + ["--auth-endpoint", server.authEndpoint.absoluteString] + header + [
                    "--channel", "private-e",
                ]
            )
            #expect(await refused.exitStatus() == 3)
            #expect(refused.standardError.contains("HTTP 403"))
            printed += self.output(refused)
            await server.setAuthEndpoint(.sign)
            let accepted = try CLIProcess(
                self.listen(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString, "--user-auth-endpoint",
                    server.userAuthEndpoint.absoluteString,
                    "--sign-in", "--channel", "private-encrypted-f", "--count", "1",
                ] + header
            )
            await server.waitForSubscribers(of: "private-encrypted-f")
            sharedSecrets.append(try #require(await server.sharedSecret(for: "private-encrypted-f")))
            await server.trigger(channel: "private-encrypted-f", event: "sealed", data: "opened")
            #expect(
                await accepted.exitStatus() == 0,
                "stdout: \(accepted.standardOutputLines), stderr: \(accepted.standardError), \(accepted.diagnosis)")
            printed += self.output(accepted)
            #expect(
                await server.snapshot.authRequests.filter {
                    $0.headers["authorization"] == "Bearer \(PlantedSecrets.headerToken)"
                }.count >= 3)
        }
        // Usage errors about secrets.
        for arguments in [
            ["--auth-header", "Bad Name: \(PlantedSecrets.headerToken)"],
            ["--auth-header", "X-Token: \(PlantedSecrets.headerToken)\r\nX-Other: y"],
            ["--master-key", PlantedSecrets.shortMasterKey],
            ["--secret", PlantedSecrets.appSecret, "--auth-endpoint", "https://example.org/auth"],
        ] {
            let cli = try CLIProcess(
                ["listen", "--key", "k", "--host", "127.0.0.1", "--channel", "private-x"] + arguments)
            #expect(await cli.exitStatus() == 2, "\(arguments)")
            printed += self.output(cli)
        }
        #expect(printed.count > 20)
        #expect(PlantedSecrets.leaks(in: printed, of: PlantedSecrets.all + sharedSecrets) == [])
    }
}
