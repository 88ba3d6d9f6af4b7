// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// Secrets from the environment and from files; transport warnings.
extension CLITests {
    /// A file in a fresh temporary directory holding `text`.
    func temporaryFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secret-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(
        "the app secret can come from PUSHER_SECRET or --secret-file, the master key from PUSHER_MASTER_KEY or --master-key-file"
    )
    func secretsFromEnvironmentAndFiles() async throws {
        let secretFile = try self.temporaryFile(Self.secret + "\n")
        let keyFile = try self.temporaryFile(Self.masterKey + "\n")
        defer { for file in [secretFile, keyFile] { try? FileManager.default.removeItem(at: file) } }
        let sources: [([String], [String: String])] = [
            (["--secret-file", secretFile.path, "--master-key-file", keyFile.path], [:]),
            ([], ["PUSHER_SECRET": Self.secret, "PUSHER_MASTER_KEY": Self.masterKey]),
        ]
        let configuration = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        for (arguments, environment) in sources {
            try await FakePusherServer.withRunning(configuration: configuration) { server in
                let cli = try CLIProcess(
                    self.connectionArguments(server) + arguments + [
                        "--user-id", "u1", "--channel", "presence-room", "--channel", "private-encrypted-vault",
                        "--count", "1",
                    ],
                    environment: environment
                )
                await server.waitForSubscribers(of: "presence-room")
                await server.waitForSubscribers(of: "private-encrypted-vault")
                await server.trigger(channel: "private-encrypted-vault", event: "sealed", data: "opened")
                #expect(await cli.exitStatus() == 0, "\(arguments) \(environment.keys): \(cli.standardError)")
                #expect(
                    cli.standardOutputLines.contains(
                        #"{"channel":"private-encrypted-vault","event":"sealed","data":"opened"}"#))
                #expect(!cli.standardError.contains(Self.secret) && !cli.standardError.contains(Self.masterKey))
            }
        }
    }

    @Test(
        "auth headers can come from --auth-header-file and PUSHER_AUTH_HEADER; --auth-header replaces one of the same name"
    )
    func authHeadersFromFileAndEnvironment() async throws {
        let file = try self.temporaryFile("# tokens\nAuthorization: Bearer from-file\nX-Tenant: blue\n")
        defer { try? FileManager.default.removeItem(at: file) }
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString, "--auth-header-file", file.path,
                    "--auth-header", "x-tenant: green", "--channel", "private-orders", "--count", "1",
                ],
                environment: ["PUSHER_AUTH_HEADER": "X-Env: from-env\nAuthorization: Bearer from-env"]
            )
            await server.waitForSubscribers(of: "private-orders")
            await server.trigger(channel: "private-orders", event: "created", data: "1")
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            let headers = try #require(await server.snapshot.authRequests.first?.headers)
            #expect(headers["authorization"] == "Bearer from-file")
            #expect(headers["x-env"] == "from-env")
            #expect(headers["x-tenant"] == "green")
        }
    }

    @Test("--no-tls with --cluster, and an auth endpoint over http:// to another host, are warned about")
    func insecureTransportWarnings() async throws {
        let cli = try CLIProcess([
            "listen", "--key", "k", "--cluster", "eu", "--no-tls", "--auth-endpoint",
            "http://auth.example.org/pusher/auth",
            "--channel", "bad name!",
        ])
        #expect(await cli.exitStatus() == 3)
        #expect(cli.standardError.contains("warning: --no-tls with --cluster"), "stderr: \(cli.standardError)")
        #expect(
            cli.standardError.contains("warning: --auth-endpoint uses plain http:// to auth.example.org"),
            "stderr: \(cli.standardError)")

        let loopback = try CLIProcess([
            "listen", "--key", "k", "--host", "127.0.0.1", "--no-tls", "--auth-endpoint", "http://127.0.0.1:9/auth",
            "--channel", "bad name!",
        ])
        #expect(await loopback.exitStatus() == 3)
        #expect(!loopback.standardError.contains("warning"), "stderr: \(loopback.standardError)")
    }
}
