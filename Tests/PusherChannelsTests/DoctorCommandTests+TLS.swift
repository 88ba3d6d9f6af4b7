// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// `doctor` against the fake server's TLS mode, whose certificate a private CA issued.
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
