// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// `listen --proxy … --auth-endpoint …`: the auth endpoint goes through the same proxy.
extension CLITests {
    @Test(
        "--auth-endpoint goes through --proxy: an absolute-URI request to an HTTP proxy, a SOCKS5 tunnel with credentials",
        arguments: [false, true])
    func authEndpointThroughProxy(socks: Bool) async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let behaviour: TestProxy.Behaviour =
                socks ? .socks5(credentials: ("bob", "cli-socks-pw")) : .http(credentials: ("alice", "cli-http-pw"))
            try await TestProxy.withRunning(behaviour) { proxy in
                let cli = try CLIProcess(
                    self.connectionArguments(server) + [
                        "--proxy", proxy.url(credentials: socks ? "bob:cli-socks-pw" : "alice:cli-http-pw"),
                        "--auth-endpoint", server.authEndpoint.absoluteString,
                        "--channel", "private-orders", "--count", "1",
                    ], environment: Self.noProxyEnvironment)
                await server.waitForSubscribers(of: "private-orders")
                await server.trigger(channel: "private-orders", event: "created", data: "proxied")
                #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
                #expect(
                    cli.standardOutputLines == [#"{"channel":"private-orders","event":"created","data":"proxied"}"#])
                let server = "\(server.host):\(server.port)"
                let auth = socks ? server : "POST http://\(server)/pusher/auth HTTP/1.1"
                #expect(proxy.snapshot.targets == [server, auth])
                #expect(!cli.standardError.contains("cli-socks-pw") && !cli.standardError.contains("cli-http-pw"))
            }
        }
    }
}
