// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import PusherChannelsTesting
import PusherTestSupport
import Testing

@testable import PusherChannels

/// Per-request form parameters of the auth endpoints (pusher-js's `paramsProvider`), on the app's
/// own `HTTPClient`, against a loopback endpoint that records each request.
@Suite("Auth endpoint parameters provider", .timeLimit(.minutes(1)))
struct AuthParametersProviderTests {
    static let answer = LoopbackHTTPServer.Reply.respond(status: 200, body: Array(#"{"auth":"k:s"}"#.utf8))

    /// The form fields of a recorded request body.
    static func fields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test("the provider is called for every request, through the app's HTTPClient; its fields override the static ones")
    func providedPerRequest() async throws {
        let calls = NIOLockedValueBox(0)
        try await LoopbackHTTPServer.withRunning(reply: { _ in Self.answer }) { endpoint in
            let appClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let authorizer = ChannelAuthorizer.endpoint(
                URL(string: "\(endpoint.url)/pusher/auth")!,  // a valid literal
                parameters: ["tenant": "static", "region": "eu"],
                httpClient: appClient,
                parametersProvider: {
                    let call = calls.withLockedValue { value -> Int in
                        value += 1
                        return value
                    }
                    return ["tenant": "acme", "nonce": "n-\(call)"]
                }
            )
            _ = try await authorizer.authorize("1.1", "private-chat")
            _ = try await authorizer.authorize("2.2", "private-chat")
            try await appClient.shutdown()
            let sent = endpoint.requests.map { Self.fields($0.body) }
            #expect(
                sent == [
                    [
                        "socket_id": "1.1", "channel_name": "private-chat", "tenant": "acme", "region": "eu",
                        "nonce": "n-1",
                    ],
                    [
                        "socket_id": "2.2", "channel_name": "private-chat", "tenant": "acme", "region": "eu",
                        "nonce": "n-2",
                    ],
                ])
            // The client's fields come first, then the parameters by name.
            #expect(
                endpoint.requests.first?.body.hasPrefix("socket_id=1.1&channel_name=private-chat&nonce=n-1") == true)
        }
    }

    @Test(
        "socket_id and channel_name cannot be replaced by a parameter: invalidConfiguration, no request",
        arguments: [
            (["socket_id": "9.9"], [:]),
            ([:], ["channel_name": "private-other"]),
        ] as [([String: String], [String: String])])
    func protectedFields(static parameters: [String: String], provided: [String: String]) async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in Self.answer }) { endpoint in
            let authorizer = ChannelAuthorizer.endpoint(
                URL(string: "\(endpoint.url)/pusher/auth")!,  // a valid literal
                parameters: parameters,
                parametersProvider: { provided }
            )
            await #expect {
                _ = try await authorizer.authorize("1.1", "private-chat")
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .invalidConfiguration && error?.channel == "private-chat"
                    && error?.message.contains(parameters.keys.first ?? provided.keys.first ?? "?") == true
            }
            #expect(endpoint.requests.isEmpty)
        }
    }

    @Test("a provider that throws fails the call; the client reports authorizationFailed")
    func providerThrows() async throws {
        struct Unavailable: Error {}
        try await LoopbackHTTPServer.withRunning(reply: { _ in Self.answer }) { endpoint in
            let authorizer = ChannelAuthorizer.endpoint(
                URL(string: "\(endpoint.url)/pusher/auth")!,  // a valid literal
                parametersProvider: { throw Unavailable() })
            let harness = InMemoryHarness(configuration: { $0.authorizer = authorizer })
            try await withRunningClient(harness.client) { client in
                let consumer = Task { for try await _ in client.events(on: "private-chat") {} }
                _ = await harness.established()
                await #expect {
                    try await consumer.value
                } throws: { error in
                    (error as? PusherError)?.code == .authorizationFailed
                }
            }
            #expect(endpoint.requests.isEmpty)
        }
    }

    @Test("the user-auth endpoint takes provided parameters too, and protects socket_id")
    func userAuthentication() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in
            .respond(status: 200, body: Array(#"{"auth":"k:s","user_data":"{\"id\":\"1\"}"}"#.utf8))
        }) { endpoint in
            let url = URL(string: "\(endpoint.url)/pusher/user-auth")!  // a valid literal
            let authenticator = UserAuthenticator.endpoint(url, parametersProvider: { ["session": "s-1"] })
            _ = try await authenticator.authenticate("1.1")
            #expect(endpoint.requests.map { Self.fields($0.body) } == [["socket_id": "1.1", "session": "s-1"]])
            let spoofing = UserAuthenticator.endpoint(url, parametersProvider: { ["socket_id": "9.9"] })
            await #expect {
                _ = try await spoofing.authenticate("1.1")
            } throws: { error in
                (error as? PusherError)?.code == .invalidConfiguration
            }
            #expect(endpoint.requests.count == 1)
        }
    }
}
