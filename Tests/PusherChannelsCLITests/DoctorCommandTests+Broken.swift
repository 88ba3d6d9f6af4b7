// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Set-ups broken on purpose: each gives its own `fail` line and exit 1, the other checks `ok`.
extension DoctorCommandTests {
    /// Runs `doctor` against the fake server with the auth endpoint `reply` (every auth check).
    func withAuthEndpoint(
        _ reply: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply,
        extra: [String] = [],
        _ check: (Run) throws -> Void
    ) async throws {
        try await self.withServer { server in
            try await LoopbackHTTPServer.withRunning(reply: reply) { endpoint in
                let run = try await self.doctor(
                    self.appArguments(server) + ["--auth-endpoint", "\(endpoint.url)/pusher/auth"] + extra)
                try check(run)
            }
        }
    }

    @Test("the wrong secret given: api says the secret does not belong to the key; exit 1")
    func wrongSecret() async throws {
        try await self.withServer { server in
            let run = try await self.doctor(
                self.appArguments(server, secret: "not-the-app-secret")
                    + ["--auth-endpoint", server.authEndpoint.absoluteString])
            #expect(run.status == 1, "\(run.summary)")
            let api = try #require(run.line("api"))
            #expect(
                api.hasPrefix("fail api: ") && api.contains("the secret does not belong to the key doctor-key"),
                "\(api)")
            // The endpoint signs with the app's secret and the server accepts: doctor's secret is the wrong one.
            let auth = try #require(run.line("auth-private"))
            #expect(auth.hasPrefix("warn auth-private: ") && auth.contains("the secret given to doctor"), "\(auth)")
            #expect(!run.lines.joined().contains("not-the-app-secret"))
        }
    }

    @Test(
        "an auth endpoint signing with another secret: auth-private fails with the string it should sign and the server's refusal"
    )
    func authEndpointWithWrongSecret() async throws {
        try await self.withAuthEndpoint(
            Endpoints.auth(secret: "another-apps-secret"),
            extra: ["--skip", "auth-presence", "--skip", "auth-encrypted"]
        ) { run in
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("auth-private"))
            #expect(line.hasPrefix("fail auth-private: "), "\(line)")
            #expect(line.contains(":private-doctor\" (socket_id:channel_name) with the app secret"), "\(line)")
            #expect(line.contains("failed: Invalid signature"), "\(line)")
            #expect(run.statuses["connect"] == "ok" && run.statuses["api"] == "ok", "\(run.summary)")
        }
    }

    @Test("an auth endpoint answering an HTML login page: auth-private fails naming the page and the header to pass")
    func htmlLoginPage() async throws {
        let page = """
            <!DOCTYPE html>
            <html><head><title>Sign in – Example</title></head>
            <body><form>token=Bearer token-of-doctor</form></body></html>
            """
        let reply: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in
            .respond(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page.utf8))
        }
        try await self.withAuthEndpoint(reply, extra: ["--auth-header", "Authorization: Bearer token-of-doctor"]) {
            run in
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("auth-private"))
            #expect(line.hasPrefix("fail auth-private: "), "\(line)")
            #expect(line.contains("HTML page \"Sign in – Example\""), "\(line)")
            #expect(line.contains("--auth-header"), "\(line)")
            #expect(!run.lines.joined().contains("token-of-doctor"), "\(run.summary)")
        }
    }

    @Test("presence auth without channel_data: auth-presence fails, the other auth checks pass")
    func presenceWithoutChannelData() async throws {
        try await self.withAuthEndpoint(Endpoints.auth(flaws: .noChannelData)) { run in
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("auth-presence"))
            #expect(line.hasPrefix("fail auth-presence: "), "\(line)")
            #expect(line.contains("no \"channel_data\""), "\(line)")
            #expect(run.statuses["auth-private"] == "ok" && run.statuses["auth-encrypted"] == "ok", "\(run.summary)")
        }
    }

    @Test("encrypted auth without shared_secret: auth-encrypted fails, the other auth checks pass")
    func encryptedWithoutSharedSecret() async throws {
        try await self.withAuthEndpoint(Endpoints.auth(flaws: .noSharedSecret)) { run in
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("auth-encrypted"))
            #expect(line.hasPrefix("fail auth-encrypted: "), "\(line)")
            #expect(line.contains("no \"shared_secret\""), "\(line)")
            #expect(run.statuses["auth-private"] == "ok" && run.statuses["auth-presence"] == "ok", "\(run.summary)")
        }
    }

    @Test("an auth endpoint that never answers: auth-private fails after the 10 s deadline")
    func hangingAuthEndpoint() async throws {
        let started = ContinuousClock.now
        try await self.withAuthEndpoint({ _ in .hang }, extra: ["--skip", "auth-presence", "--skip", "auth-encrypted"])
        { run in
            #expect(run.status == 1, "\(run.summary)")
            #expect(run.line("auth-private")?.contains("no answer within 10 s") == true, "\(run.summary)")
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test(
        "an API server 900 s ahead answering 401 Timestamp expired: api names the clock difference and the cause",
        arguments: [false, true]
    )
    func timestampExpired(inMessage: Bool) async throws {
        let reply: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in
            let now = Int(Date().timeIntervalSince1970)
            let serverTime = now + 900
            let date = Date(timeIntervalSince1970: Double(serverTime))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let text =
                inMessage
                ? "Timestamp expired: Given timestamp (\(now)) not within 600s of server time (\(serverTime))"
                : "401 Timestamp expired"
            return .respond(status: 401, headers: [("Date", formatter.string(from: date))], body: Array(text.utf8))
        }
        try await LoopbackHTTPServer.withRunning(reply: reply) { api in
            let run = try await self.doctor([
                "--app-id", "1", "--key", "k", "--secret", Endpoints.secret, "--host", "127.0.0.1:\(api.port)",
                "--no-tls",
                "--skip", "connect",
            ])
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("api"))
            #expect(line.hasPrefix("fail api: "), "\(line)")
            let seconds = (899...901).map { "clock is \($0) s ahead of this machine's" }
            #expect(seconds.contains { line.contains($0) }, "\(line)")
            #expect(line.contains(inMessage ? "from its message" : "from its Date header"), "\(line)")
            #expect(line.contains("NTP"), "\(line)")
        }
    }

    @Test("a webhook handler that accepts anything: webhook fails saying it accepts unsigned webhooks")
    func webhookAcceptsAnything() async throws {
        try await self.withServer { server in
            try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: 200) }) { receiver in
                let run = try await self.doctor(self.appArguments(server) + ["--webhook-url", receiver.url])
                #expect(run.status == 1, "\(run.summary)")
                let line = try #require(run.line("webhook"))
                #expect(
                    line.hasPrefix("fail webhook: ") && line.contains("your endpoint accepts unsigned webhooks"),
                    "\(line)")
                #expect(run.statuses["connect"] == "ok" && run.statuses["api"] == "ok", "\(run.summary)")
            }
        }
    }

    @Test("a webhook handler that verifies re-serialised JSON: webhook fails saying it does not verify the raw body")
    func webhookVerifiesReserialisedJSON() async throws {
        try await self.withServer { server in
            let reply = Endpoints.webhookReceiver(signedText: Endpoints.compacted)
            try await LoopbackHTTPServer.withRunning(reply: reply) { receiver in
                let run = try await self.doctor(self.appArguments(server) + ["--webhook-url", receiver.url])
                #expect(run.status == 1, "\(run.summary)")
                let line = try #require(run.line("webhook"))
                #expect(line.hasPrefix("fail webhook: "), "\(line)")
                #expect(line.contains("verifies parsed JSON, not the raw body"), "\(line)")
                #expect(receiver.requests.count == 3)
            }
        }
    }
}
