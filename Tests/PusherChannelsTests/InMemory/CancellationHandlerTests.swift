// SPDX-License-Identifier: MIT

import PusherChannelsTesting
import Testing

@testable import PusherChannels

/// The client cancels an authorizer's call, or a headers provider, where it holds no lock: their
/// cancellation handlers are user code, which may call back into the client.
@Suite("Cancellation handlers run outside the client's lock", .timeLimit(.minutes(1)))
struct CancellationHandlerTests {
    @Test("an authorizer's cancellation handler may call back into the client when its call times out")
    func authorizerCallsBack() async throws {
        let client = WaitableState<PusherClient?>(nil)
        let started = WaitableState(false)
        let handled = WaitableState<String?>(nil)
        let authorizer = ChannelAuthorizer { _, _ in
            try await withTaskCancellationHandler {
                started.fire()
                // Answers only when cancelled.
                _ = await WaitableState(false).waitUntilFired()
                throw CancellationError()
            } onCancel: {
                // Takes the client's lock: under it, this would never return.
                let key = client.withLock { $0 }?.key
                handled.update { $0 = key }
            }
        }
        try await withInMemoryClient(configuration: { $0.authorizer = authorizer }) { harness in
            client.withLock { $0 = harness.client }
            let consumer = Task { for try await _ in harness.client.events(on: "private-chat") {} }
            _ = await harness.established()
            await started.waitUntilFired()
            // The authorization timeout: the engine gives the call up and cancels it.
            harness.clock.advance(by: .seconds(10))
            let key = await handled.wait(until: { $0 })
            #expect(key == "app-key")
            consumer.cancel()
        }
    }

    @Test("a headers provider's cancellation handler may call back into the client when the attempt is given up")
    func headersProviderCallsBack() async throws {
        let client = WaitableState<PusherClient?>(nil)
        let handled = WaitableState<String?>(nil)
        try await withInMemoryClient(configuration: { options in
            options.headersProvider = {
                try await withTaskCancellationHandler {
                    // Answers only when cancelled.
                    _ = await WaitableState(false).waitUntilFired()
                    throw CancellationError()
                } onCancel: {
                    let key = client.withLock { $0 }?.key
                    handled.update { $0 = key }
                }
            }
        }) { harness in
            client.withLock { $0 = harness.client }
            // The handshake timeout gives the attempt up while the provider runs.
            await harness.clock.waitForDeadlines([.seconds(10)])
            harness.clock.advance(by: .seconds(10))
            let key = await handled.wait(until: { $0 })
            #expect(key == "app-key")
        }
    }
}
