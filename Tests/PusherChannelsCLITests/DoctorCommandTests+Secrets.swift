// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// No secret in what `doctor` prints, whatever succeeds, fails or echoes secrets back.
extension DoctorCommandTests {
    static let headerToken = "HEADER-TOKEN-d0c70r"
    static let proxyPassword = "PROXY-PASSWORD-d0c70r"

    @Test("no secret is printed: the app secret, auth header values, shared secrets, proxy credentials")
    func printsNoSecret() async throws {
        var printed: [String] = []
        var secrets = [Endpoints.secret, Endpoints.masterKey, Self.headerToken, Self.proxyPassword]
        try await self.withServer { server in
            // Endpoints that echo back what they were sent, headers included, in refusals.
            let echo: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { request in
                let text = "refused \(request.headers) \(request.body)"
                return .respond(status: 403, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
            }
            try await LoopbackHTTPServer.withRunning(reply: echo) { echoing in
                let environment = [
                    "PUSHER_SECRET": Endpoints.secret, "PUSHER_AUTH_HEADER": "X-Token: \(Self.headerToken)",
                ]
                for endpoint in [server.authEndpoint.absoluteString, "\(echoing.url)/pusher/auth"] {
                    let run = try await self.doctor(
                        self.appArguments(server, secret: nil) + [
                            "--auth-endpoint", endpoint, "--user-auth-endpoint", endpoint, "--webhook-url", echoing.url,
                            "--json",
                        ],
                        environment: environment)
                    #expect(run.lines.count == Self.checks.count, "\(run.summary)")
                    printed += run.lines + [run.errors]
                }
                #expect(echoing.requests.contains { $0.headers["x-token"] == Self.headerToken })
            }
            secrets.append(try #require(await server.sharedSecret(for: "private-encrypted-doctor")))
        }
        // A proxy with credentials, and usage errors that quote secrets.
        let refusing = try RefusingPort()
        for arguments in [
            ["--proxy", "http://user:\(Self.proxyPassword)@127.0.0.1:\(refusing.port)"],
            ["--proxy", "http://user:\(Self.proxyPassword)@127.0.0.1:notaport"],
            ["--auth-header", "Bad Name: \(Self.headerToken)"],
            ["--auth-header", "X-Token: \(Self.headerToken)\r\nX-Other: y"],
        ] {
            let run = try await self.doctor(
                ["--app-id", "1", "--key", "k", "--secret", Endpoints.secret, "--host", "ws.example.test"] + arguments)
            #expect(run.status == 1 || run.status == 2, "\(run.summary)")
            printed += run.lines + [run.errors]
        }
        withExtendedLifetime(refusing) {}
        #expect(printed.count > 20)
        #expect(PlantedSecrets.leaks(in: printed, of: secrets) == [])
    }
}
