// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `listen --ca-file` against the fake server's TLS mode.
extension CLITests {
    @Test(
        "--ca-file trusts a private CA: wss:// to a server with a certificate it issued connects; without it, tlsFailed"
    )
    func privateCertificateAuthority() async throws {
        let caFile = try self.temporaryFile(TestCertificates.certificateAuthorityPEM)
        let notPEM = try self.temporaryFile("not a certificate\n")
        defer { for file in [caFile, notPEM] { try? FileManager.default.removeItem(at: file) } }
        try await FakePusherServer.withRunning(configuration: .init(tls: .localhost)) { server in
            let arguments = [
                "listen", "--key", server.appKey, "--host", "localhost", "--port", "\(server.port)", "--channel",
                "news",
            ]
            let trusting = try CLIProcess(arguments + ["--ca-file", caFile.path, "--count", "1"])
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "headline", data: "over tls")
            #expect(await trusting.exitStatus() == 0, "stderr: \(trusting.standardError)")
            #expect(trusting.standardOutputLines == [#"{"channel":"news","event":"headline","data":"over tls"}"#])

            let untrusting = try CLIProcess(arguments)
            await untrusting.waitForStandardError(containing: "tlsFailed")
            untrusting.send(signal: SIGINT)
            #expect(await untrusting.exitStatus() == 0)
            #expect(await server.snapshot.subscribers(of: "news") == 0)

            let invalid = try CLIProcess(arguments + ["--ca-file", notPEM.path])
            #expect(await invalid.exitStatus() == 2)
            #expect(
                invalid.standardError.contains("--ca-file: \(notPEM.path) holds"), "stderr: \(invalid.standardError)")
        }
    }

    @Test(
        "--ca-file covers the auth endpoint: https:// to the TLS fake server's auth endpoint authorizes a private channel"
    )
    func privateCertificateAuthorityForAuthEndpoint() async throws {
        let caFile = try self.temporaryFile(TestCertificates.certificateAuthorityPEM)
        defer { try? FileManager.default.removeItem(at: caFile) }
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret, tls: .localhost)) {
            server in
            let cli = try CLIProcess([
                "listen", "--key", server.appKey, "--host", "localhost", "--port", "\(server.port)", "--ca-file",
                caFile.path, "--auth-endpoint", server.authEndpoint.absoluteString, "--channel", "private-news",
                "--count", "1",
            ])
            await server.waitForSubscribers(of: "private-news")
            await server.trigger(channel: "private-news", event: "headline", data: "authorized over tls")
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardOutputLines == [
                    #"{"channel":"private-news","event":"headline","data":"authorized over tls"}"#
                ])
            #expect(await server.snapshot.authRequests.count == 1)
        }
    }
}
