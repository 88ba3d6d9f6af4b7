// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import PusherChannelsTesting
import PusherTestSupport
import Testing

@testable import PusherChannels

// The auth endpoints on AsyncHTTPClient: no redirect followed, bounded answers, the client's TLS
// trust, cancellation.
extension AuthEndpointTests {
    @Test(
        "a redirect to another origin is not followed: authorizationFailed with the 3xx status; the target sees nothing",
        arguments: [301, 302, 303, 307, 308]
    )
    func redirectNotFollowed(status: Int) async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in
            .respond(status: 200, body: Array(#"{"auth":"k:s"}"#.utf8))
        }) {
            target in
            let location = "\(target.url)/pusher/auth"
            try await LoopbackHTTPServer.withRunning(reply: { _ in
                .respond(status: status, headers: [("Location", location)], body: Array("moved".utf8))
            }) { redirecting in
                try await FakePusherServer.withRunning { server in
                    var options = server.clientConfiguration()
                    options.authorizer = .endpoint(
                        URL(string: "\(redirecting.url)/pusher/auth")!,  // a valid literal
                        headers: ["Authorization": "Bearer secret-token", "X-Api-Key": "secret-key"]
                    )
                    let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
                    try await withRunningClient(client) { client in
                        var failure: PusherError?
                        do {
                            for try await _ in client.events(on: "private-chat") {}
                        } catch {
                            failure = error as? PusherError
                        }
                        #expect(failure?.code == .authorizationFailed)
                        #expect(failure?.httpStatus == status)
                        #expect(failure?.message.contains("redirect") == true, "\(String(describing: failure))")
                        #expect(failure?.responseBody == "moved")
                    }
                }
                #expect(redirecting.requests.count == 1)
                #expect(redirecting.requests.first?.headers["authorization"] == "Bearer secret-token")
            }
            #expect(target.requests.isEmpty, "the redirect was followed: \(target.requests)")
        }
    }

    @Test("the user-auth endpoint follows no redirect either: signInFailed with the status")
    func userAuthRedirectNotFollowed() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: 200) }) { target in
            let location = "\(target.url)/pusher/user-auth"
            try await LoopbackHTTPServer.withRunning(reply: { _ in
                .respond(status: 307, headers: [("Location", location)])
            }) { redirecting in
                let authenticator = UserAuthenticator.endpoint(
                    URL(string: "\(redirecting.url)/pusher/user-auth")!,  // a valid literal
                    headers: ["Authorization": "Bearer secret-token"]
                )
                await #expect {
                    _ = try await authenticator.authenticate("1.1")
                } throws: { error in
                    let error = error as? PusherError
                    return error?.code == .signInFailed && error?.httpStatus == 307
                }
                #expect(redirecting.requests.count == 1)
            }
            #expect(target.requests.isEmpty, "the redirect was followed: \(target.requests)")
        }
    }

    @Test("an injected HTTPClient sends the requests; an answer it reached through a redirect still fails with the 3xx")
    func injectedClient() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in
            .respond(status: 200, body: Array(#"{"auth":"k:s"}"#.utf8))
        }) {
            target in
            let location = "\(target.url)/pusher/auth"
            try await LoopbackHTTPServer.withRunning(reply: { _ in
                .respond(status: 302, headers: [("Location", location)])
            }) { redirecting in
                let url = URL(string: "\(redirecting.url)/pusher/auth")!  // a valid literal
                let following = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 2, allowCycles: false)))
                let authorizer = ChannelAuthorizer.endpoint(url, httpClient: following)
                await #expect {
                    _ = try await authorizer.authorize("1.1", "private-chat")
                } throws: { error in
                    (error as? PusherError)?.httpStatus == 302 && (error as? PusherError)?.code == .authorizationFailed
                }
                try await following.shutdown()
                // This client followed the redirect: the target got the request (without Authorization).
                #expect(target.requests.count == 1)
            }
        }
    }

    @Test("a 1 MiB answer fails with authorizationFailed saying it is larger than 64 KiB", arguments: [200, 500])
    func oversizedAnswer(status: Int) async throws {
        let big = Array(#"{"auth":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20) + Array(#""}"#.utf8)
        try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: status, body: big) }) { endpoint in
            let authorizer = ChannelAuthorizer.endpoint(URL(string: "\(endpoint.url)/pusher/auth")!)  // a valid literal
            await #expect {
                _ = try await authorizer.authorize("1.1", "private-chat")
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .authorizationFailed && error?.httpStatus == status
                    && error?.message.contains("larger than 64 KiB") == true && error?.channel == "private-chat"
            }
            let authenticator = UserAuthenticator.endpoint(URL(string: "\(endpoint.url)/pusher/user-auth")!)  // valid
            await #expect {
                _ = try await authenticator.authenticate("1.1")
            } throws: { error in
                (error as? PusherError)?.code == .signInFailed
                    && (error as? PusherError)?.message.contains("larger than 64 KiB") == true
            }
        }
    }

    @Test("the TLS fake server's auth and user-auth endpoints work with trustCertificateAuthorities, and fail without")
    func tlsEndpointsTrustTheClientsCAs() async throws {
        let configuration = FakePusherServer.Configuration(appSecret: Self.secret, tls: .localhost)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            #expect(server.authEndpoint.scheme == "https")
            var options = PusherClientConfiguration(host: server.host, port: server.port)
            try options.trustCertificateAuthorities(pem: TestCertificates.certificateAuthorityPEM)
            options.authorizer = .endpoint(server.authEndpoint)
            options.userAuthenticator = .endpoint(server.userAuthEndpoint)
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                async let events = collect(client.events(on: "private-orders"), count: 1)
                await server.waitForSubscribers(of: "private-orders")
                await server.trigger(channel: "private-orders", event: "created", data: "{}")
                #expect(try await events.map(\.name) == ["created"])
                var states = client.userStates.makeAsyncIterator()
                try await client.signIn()
                var last: UserState?
                while let state = await states.next() {
                    last = state
                    if case .signedIn = state { break }
                    if case .failed = state { break }
                }
                #expect(last?.user?.id.hasPrefix("user-") == true, "\(String(describing: last))")
            }
            #expect(await server.snapshot.authRequests.count == 2)

            // Without the CA the same endpoint is refused (the system trust store does not know it).
            let untrusting = ChannelAuthorizer.endpoint(server.authEndpoint)
            await #expect {
                _ = try await untrusting.authorize("1.1", "private-orders")
            } throws: { error in
                (error as? PusherError)?.code == .authorizationFailed
            }
            #expect(await server.snapshot.authRequests.count == 2)
        }
    }

    @Test("a hanging auth request is cancelled at the authorization timeout: its connection is closed")
    func hangingRequestCancelled() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .hang }) { endpoint in
            try await FakePusherServer.withRunning { server in
                var options = server.clientConfiguration()
                options.authorizer = .endpoint(URL(string: "\(endpoint.url)/pusher/auth")!)  // a valid literal
                let clock = VirtualClock()
                let client = server.inMemoryClient(configuration: options, clock: clock)
                try await withRunningClient(client) { client in
                    async let failure: PusherError? = {
                        do {
                            for try await _ in client.events(on: "private-chat") {}
                            return nil
                        } catch {
                            return error as? PusherError
                        }
                    }()
                    await endpoint.waitUntil { requests, _ in requests.count == 1 }
                    let timeout = options.authorizationTimeout
                    await clock.waitUntilPending { $0.contains { $0.offset == timeout } }
                    clock.advance(by: timeout)
                    let error = await failure
                    #expect(error?.code == .authorizationFailed)
                    #expect(error?.message.contains("did not answer within") == true, "\(String(describing: error))")
                    await endpoint.waitUntil { _, abandoned in abandoned == 1 }
                }
            }
        }
    }

    @Test("cancelling the task of an auth request ends it at once and closes its connection")
    func cancelledRequest() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .hang }) { endpoint in
            let authorizer = ChannelAuthorizer.endpoint(URL(string: "\(endpoint.url)/pusher/auth")!)  // valid
            let task = Task { try await authorizer.authorize("1.1", "private-chat") }
            await endpoint.waitUntil { requests, _ in requests.count == 1 }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            await endpoint.waitUntil { _, abandoned in abandoned == 1 }
        }
    }
}
