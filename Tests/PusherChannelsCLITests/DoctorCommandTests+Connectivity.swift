// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// `doctor` through TLS with a private CA, proxies and redirects.
extension DoctorCommandTests {
    @Test("TLS with a private CA: without --ca-file connect and api fail naming it; with it every check passes")
    func privateCertificateAuthority() async throws {
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-ca-\(UUID().uuidString).pem")
        try Data(TestCertificates.certificateAuthorityPEM.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let configuration = FakePusherServer.Configuration(
            appKey: Endpoints.key, appSecret: Endpoints.secret, tls: .localhost, appID: Endpoints.appID)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let arguments = [
                "--app-id", Endpoints.appID, "--key", Endpoints.key, "--secret", Endpoints.secret, "--host",
                "localhost:\(server.port)", "--auth-endpoint", "https://localhost:\(server.port)/pusher/auth",
                "--skip", "auth-presence", "--skip", "auth-encrypted",
            ]
            let untrusting = try await self.doctor(arguments)
            #expect(untrusting.status == 1, "\(untrusting.summary)")
            for check in ["connect", "api", "auth-private"] {
                let line = try #require(untrusting.line(check), "\(untrusting.summary)")
                #expect(line.hasPrefix("fail \(check): "), "\(line)")
                #expect(line.contains("not trusted") && line.contains("--ca-file"), "\(line)")
            }
            let trusting = try await self.doctor(arguments + ["--ca-file", caFile.path])
            #expect(trusting.status == 0, "\(trusting.summary)")
            #expect(trusting.statuses["connect"] == "ok" && trusting.statuses["api"] == "ok", "\(trusting.summary)")
            #expect(trusting.line("connect")?.contains("wss://localhost:\(server.port)/app/") == true)
            #expect(trusting.statuses["auth-private"] == "ok", "\(trusting.summary)")
        }
    }
}

// Proxies and redirects.
extension DoctorCommandTests {
    @Test("a proxy of the environment is named (its credentials never shown) when the connection through it fails")
    func environmentProxyNamed() async throws {
        let refusing = try RefusingPort()
        let proxy = "http://proxy-user:proxy-password@127.0.0.1:\(refusing.port)"
        let run = try await self.doctor(
            ["--app-id", "1", "--key", "k", "--secret", Endpoints.secret, "--host", "ws.example.test", "--no-tls"],
            environment: [
                "HTTPS_PROXY": proxy, "https_proxy": "", "ALL_PROXY": "", "all_proxy": "", "NO_PROXY": "",
                "no_proxy": "",
            ])
        #expect(run.status == 1, "\(run.summary)")
        let line = try #require(run.line("connect"))
        #expect(line.hasPrefix("fail connect: "), "\(line)")
        #expect(line.contains("through the proxy http://***@127.0.0.1:\(refusing.port) (from HTTPS_PROXY"), "\(line)")
        #expect(run.line("api")?.contains("through the proxy") == true, "\(run.summary)")
        #expect(!(run.lines.joined() + run.errors).contains("proxy-password"), "\(run.summary)")
        withExtendedLifetime(refusing) {}
    }

    @Test("an auth endpoint redirecting to a login page: auth-private fails naming the redirect; it is not followed")
    func redirectToLogin() async throws {
        let reply: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { request in
            request.uri.hasPrefix("/login")
                ? .respond(
                    status: 200, headers: [("Content-Type", "text/html")], body: Array("<title>Log in</title>".utf8))
                : .respond(status: 302, headers: [("Location", "/login")])
        }
        try await self.withAuthEndpoint(reply, extra: ["--skip", "auth-presence", "--skip", "auth-encrypted"]) { run in
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("auth-private"))
            #expect(line.hasPrefix("fail auth-private: ") && line.contains("HTTP 302, a redirect to /login"), "\(line)")
        }
    }
}
