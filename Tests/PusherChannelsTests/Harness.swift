// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// A fake server, a virtual clock and a running client connected to them.
struct Harness {
    let server: FakePusherServer
    let client: PusherClient
    let clock: VirtualClock
}

/// Runs `body` with a fake server and a client driven by a virtual clock. Backoff jitter is off so
/// deadlines are exact; `configure` adjusts the client options. The client reaches the server in
/// memory (``FakePusherServer/transport``), or with `loopback` over a real loopback WebSocket, for
/// tests about what only a socket carries (frames, their bytes and sizes); the HTTP auth endpoint is
/// on loopback either way.
func withHarness(
    server configuration: FakePusherServer.Configuration = .init(),
    options configure: (inout PusherClientConfiguration) -> Void = { _ in },
    loopback: Bool = false,
    _ body: (Harness) async throws -> Void
) async throws {
    try await FakePusherServer.withRunning(configuration: configuration) { server in
        var options = server.clientConfiguration()
        options.backoff.jitter = 0
        configure(&options)
        let clock = VirtualClock()
        let client =
            loopback
            ? PusherClient(key: server.appKey, configuration: options, clock: clock)
            : server.inMemoryClient(configuration: options, clock: clock)
        try await withRunningClient(client) { client in
            try await body(Harness(server: server, client: client, clock: clock))
        }
    }
}

extension PusherSequence.AsyncIterator where Element == ConnectionState {
    /// Reads states until one matches; returns every state read, the match last.
    mutating func collect(until predicate: (ConnectionState) -> Bool) async -> [ConnectionState] {
        var seen: [ConnectionState] = []
        while let state = await self.next() {
            seen.append(state)
            if predicate(state) { return seen }
        }
        Issue.record("state sequence ended before a match; saw \(seen)")
        return seen
    }

    /// Reads states until the client is connected; returns the socket id.
    mutating func connectedSocketID() async -> String? {
        await self.collect { $0.isConnected }.last?.socketID
    }
}

/// Reads `count` events from `sequence`.
func collect(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
    var events: [ChannelEvent] = []
    for try await event in sequence {
        events.append(event)
        if events.count == count { break }
    }
    return events
}

extension ConnectionState {
    var isReconnecting: Bool {
        if case .reconnecting = self { return true }
        return false
    }

    var failure: PusherError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// Collects the first `count` events in a new task, from a consumer registered now: the iterator is
/// made before the task starts, so whatever the server sends after this call reaches it. The
/// consumer is removed when the task's loop ends.
func collecting(_ sequence: ChannelSequence<ChannelEvent>, count: Int) -> Task<[ChannelEvent], any Error> {
    let handoff = IteratorHandoff(sequence.makeAsyncIterator())
    return Task {
        var iterator = handoff.take()
        var events: [ChannelEvent] = []
        while events.count < count, let event = try await iterator.next() { events.append(event) }
        return events
    }
}
