// SPDX-License-Identifier: MIT

import NIOCore
import NIOPosix
import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

// Loopback: what is under test is how the server closes real sockets that clients left open.
/// `FakePusherServer.withRunning` returns promptly whatever its clients left open: a connection
/// that never sent a request waited for its upgrade for good, and a test suite hung past its time
/// limit (the wait ignored cancellation).
@Suite("FakePusherServer: stopping waits for no client", .timeLimit(.minutes(1)))
struct FakeServerTeardownTests {
    static let secret = "teardown-secret"

    /// How long stopping may take: it closes sockets on loopback, which takes milliseconds; the
    /// bound leaves room for a loaded machine.
    static let promptly = Duration.seconds(5)

    @Test("after PusherServer's default client called the HTTP API (idle pooled connections), stopping is prompt")
    func pooledConnections() async throws {
        let stopping = try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            func configuration(host: String, timeout: Duration) throws -> PusherServerConfiguration {
                try PusherServerConfiguration(
                    appID: server.appID, key: server.appKey, secret: Self.secret, host: host, port: server.port,
                    useTLS: false, timeout: timeout)
            }
            // The default HTTP client, a shared pool that keeps connections open, in two of its
            // pools (one per host name). A call that gives up before its connection is ready (its
            // timeout is already over) leaves that connection open and idle, no request ever sent.
            let impatient = PusherServer(configuration: try configuration(host: server.host, timeout: .nanoseconds(1)))
            // Several at once, so that the pool opens several (a call's timeout may also fire
            // before the pool has it, and then no connection is opened).
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        await #expect(throws: PusherServerError.self) {
                            try await impatient.trigger(channels: ["news"], event: "late", data: "\(index)")
                        }
                    }
                }
            }
            // A call that is answered keeps its connection open after the answer.
            let pusher = PusherServer(configuration: try configuration(host: "localhost", timeout: .seconds(30)))
            try await pusher.trigger(channels: ["news"], event: "first", data: "2")
            return ContinuousClock.now
        }
        #expect(ContinuousClock.now - stopping < Self.promptly)
    }

    @Test(
        "a raw peer that sent nothing, or half a request head, does not hold up stopping",
        arguments: ["", "GET /app/teardown HTTP/1.1\r\nHost: 127"])
    func silentPeer(sends prefix: String) async throws {
        let (stopping, peer) = try await FakePusherServer.withRunning { server in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: server.host, port: server.port).get()
            if !prefix.isEmpty { try await channel.writeAndFlush(ByteBuffer(string: prefix)) }
            // A client connecting after the peer: once it is served, the peer was accepted before it.
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(client) { _ in await server.waitForConnections(count: 1) }
            return (ContinuousClock.now, channel)
        }
        #expect(ContinuousClock.now - stopping < Self.promptly)
        try? await peer.close()
    }
}
