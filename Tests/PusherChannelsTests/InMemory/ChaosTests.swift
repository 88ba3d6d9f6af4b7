// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// A server that misbehaves at random, round after round, in virtual time: it drops connections,
/// goes half-open (stops answering without closing), refuses connection attempts and restarts
/// (close 4200). After every round each consumer receives again, every channel is subscribed
/// exactly once on the new connection, and a half-open socket is found by the pong timeout.
@Suite("Chaos", .timeLimit(.minutes(2)))
struct ChaosTests {
    /// SplitMix64: a small, seeded generator, so that a failing run can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    enum Fault: CaseIterable {
        case drop, halfOpen, refuse, restart
    }

    struct Refused: Error {}

    static let channels = ["chaos-a", "chaos-b", "chaos-c"]

    @Test(
        "200 rounds of drops, half-open sockets, refusals and restarts: nothing lost or duplicated",
        arguments: [UInt64(7), 2026])
    func rounds(seed: UInt64) async throws {
        var random = SeededGenerator(state: seed)
        try await withInMemoryClient(configuration: { $0.activityTimeout = .seconds(120) }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let (arrivals, sink) = AsyncStream<ChannelEvent>.makeStream()
            await withTaskGroup(of: Void.self) { group in
                for channel in Self.channels {
                    group.addTask {
                        do {
                            for try await event in harness.client.events(on: channel) { sink.yield(event) }
                        } catch {}
                    }
                }
                var received = arrivals.makeAsyncIterator()
                var peer = await harness.transport.nextConnection()
                var faults: [Fault: Int] = [:]
                for round in 0..<200 {
                    // The server accepts, confirms each subscription, and sends one event per channel.
                    peer.establish(socketID: "\(round).1", activityTimeout: 120)
                    _ = await states.connectedSocketID()
                    var subscribed: [String] = []
                    while subscribed.count < Self.channels.count {
                        let message = await peer.nextMessage(named: "pusher:subscribe")
                        guard let channel = Self.channels.first(where: { message.contains(#""\#($0)""#) }) else {
                            continue
                        }
                        subscribed.append(channel)
                        peer.send(
                            #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#)
                    }
                    #expect(Set(subscribed) == Set(Self.channels), "round \(round): each channel subscribed once")
                    for channel in Self.channels {
                        peer.send(#"{"event":"tick","channel":"\#(channel)","data":"\#(round)"}"#)
                    }
                    var got: [String: String] = [:]
                    for _ in Self.channels {
                        guard let event = await received.next() else { break }
                        #expect(got[event.channel] == nil, "round \(round): a duplicate on \(event.channel)")
                        got[event.channel] = event.data
                    }
                    #expect(
                        got == Dictionary(uniqueKeysWithValues: Self.channels.map { ($0, "\(round)") }),
                        "round \(round)")
                    // No subscription was sent twice on this connection.
                    #expect(peer.received.filter { $0.contains("pusher:subscribe") }.count == Self.channels.count)

                    let fault = Fault.allCases.randomElement(using: &random)!
                    faults[fault, default: 0] += 1
                    switch fault {
                    case .drop:
                        peer.drop()
                        await Self.waitOutBackoff(&states, harness)
                    case .restart:
                        peer.close(code: 4200, reason: "restarting")
                        // At once if the last connection proved healthy, else after a backoff:
                        // a connection closed the moment it delivered its events has not.
                        await Self.waitOutBackoff(&states, harness)
                    case .refuse:
                        harness.transport.refuseNextConnection(with: Refused())
                        peer.drop()
                        await Self.waitOutBackoff(&states, harness)
                        // The refused attempt fails and backs off again.
                        await Self.waitOutBackoff(&states, harness)
                    case .halfOpen:
                        // Silence: after the activity timeout the client pings, nothing answers,
                        // and the pong timeout drops the socket.
                        await harness.clock.waitForSleepers()
                        harness.clock.advance(by: .seconds(120))
                        _ = await peer.nextMessage(named: "pusher:ping")
                        await harness.clock.waitForSleepers()
                        harness.clock.advance(by: .seconds(30))
                        let cause = await states.collect { $0.isReconnecting }.last.flatMap(\.reconnectCause)
                        #expect(
                            cause?.code == .pongTimeout,
                            "round \(round): the half-open socket is found by the pong timeout")
                    }
                    peer = await harness.transport.nextConnection()
                }
                #expect(faults.count == Fault.allCases.count, "every kind of fault happened: \(faults)")
                group.cancelAll()
            }
        }
    }

    /// Reads states up to the next `reconnecting` and lets its delay pass on the virtual clock.
    static func waitOutBackoff(
        _ states: inout PusherSequence<ConnectionState>.AsyncIterator, _ harness: InMemoryHarness
    ) async {
        guard case .reconnecting(_, let delay, _)? = await states.collect(until: { $0.isReconnecting }).last else {
            return
        }
        if delay > .zero {
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: delay)
        }
    }
}

extension ConnectionState {
    var reconnectCause: PusherError? {
        if case .reconnecting(_, _, let cause) = self { return cause }
        return nil
    }
}
