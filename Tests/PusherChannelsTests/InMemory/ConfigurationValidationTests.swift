// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Options that would crash the client (a size NIO cannot take, a NaN factor, a delay whose
/// arithmetic overflows) or make it loop (zero delays or timeouts) are refused when it connects;
/// odd ones that work are clamped.
@Suite("Options validation", .timeLimit(.minutes(1)))
struct OptionsValidationTests {
    /// One invalid option, and the name the error gives for it.
    enum Invalid: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case messageSizeOver32Bits, messageSizeZero, multiplierNaN, jitterNaN, hugeMaximumDelay, zeroInitialDelay,
            zeroMaximumDelay, zeroResetAfter, negativeMaximumAttempts, zeroActivityTimeout, zeroPongTimeout,
            negativeHandshakeTimeout, zeroKeyReloadInterval, zeroOutboundBufferLimit

        var testDescription: String { self.rawValue }

        var option: String {
            switch self {
            case .messageSizeOver32Bits, .messageSizeZero: "maximumMessageSize"
            case .multiplierNaN: "backoff.multiplier"
            case .jitterNaN: "backoff.jitter"
            case .hugeMaximumDelay, .zeroMaximumDelay: "backoff.maximumDelay"
            case .zeroInitialDelay: "backoff.initialDelay"
            case .zeroResetAfter: "backoff.resetAfter"
            case .negativeMaximumAttempts: "backoff.maximumAttempts"
            case .zeroActivityTimeout: "activityTimeout"
            case .zeroPongTimeout: "pongTimeout"
            case .negativeHandshakeTimeout: "handshakeTimeout"
            case .zeroKeyReloadInterval: "keyReloadInterval"
            case .zeroOutboundBufferLimit: "outboundBufferLimit"
            }
        }

        func apply(to options: inout PusherClientConfiguration) {
            switch self {
            case .messageSizeOver32Bits: options.maximumMessageSize = Int(UInt32.max) + 1
            case .messageSizeZero: options.maximumMessageSize = 0
            case .multiplierNaN: options.backoff.multiplier = .nan
            case .jitterNaN: options.backoff.jitter = .nan
            case .hugeMaximumDelay: options.backoff.maximumDelay = .seconds(Int64.max)
            case .zeroInitialDelay: options.backoff.initialDelay = .zero
            case .zeroMaximumDelay: options.backoff.maximumDelay = .zero
            case .zeroResetAfter: options.backoff.resetAfter = .zero
            case .negativeMaximumAttempts: options.backoff.maximumAttempts = -1
            case .zeroActivityTimeout: options.activityTimeout = .zero
            case .zeroPongTimeout: options.pongTimeout = .zero
            case .negativeHandshakeTimeout: options.handshakeTimeout = .seconds(-1)
            case .zeroKeyReloadInterval: options.keyReloadInterval = .zero
            case .zeroOutboundBufferLimit: options.outboundBufferLimit = 0
            }
        }
    }

    @Test(
        "an option that would crash or loop fails connect() at once: invalidConfiguration naming it, no socket, no retry",
        arguments: Invalid.allCases)
    func refused(_ invalid: Invalid) async throws {
        try await withInMemoryClient(configuration: invalid.apply) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            // The first state after `initialized` is the verdict (`connecting` when not refused).
            let first = await states.collect { $0 != .initialized }.last
            let failure = try #require(first?.failure)
            #expect(failure.code == .invalidConfiguration)
            #expect(failure.message.contains("invalid option \(invalid.option) "), "\(failure.message)")
            #expect(await errors.next()?.code == .invalidConfiguration)
            harness.clock.advance(by: .seconds(120))
            await harness.client.connect()
            #expect(await errors.next()?.code == .invalidConfiguration)
            #expect(harness.transport.connections.isEmpty)
            #expect(harness.clock.sleeperCount == 0, "no timer runs")
        }
    }

    @Test("odd backoff values that work are clamped: negative jitter counts as 0, a multiplier below 1 as 1")
    func oddBackoffClamped() async throws {
        try await withInMemoryClient(configuration: {
            $0.backoff.jitter = -3
            $0.backoff.multiplier = 0.25
        }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            var delays: [Duration] = []
            for _ in 1...3 {
                let peer = await harness.transport.nextConnection()
                peer.drop()
                guard case .reconnecting(_, let delay, _)? = await states.collect(until: { $0.isReconnecting }).last
                else { return }
                delays.append(delay)
                await harness.clock.waitForSleepers()
                harness.clock.advance(by: delay)
            }
            #expect(delays == [.seconds(1), .seconds(1), .seconds(1)])
        }
    }

    @Test("a buffering limit set to 0 counts as 1: with dropOldest the consumer keeps getting the newest events")
    func zeroBufferingLimit() async throws {
        var policy = BufferingPolicy(limit: 5, whenFull: .dropOldest, byteLimit: 1 << 20)
        policy.limit = 0
        policy.byteLimit = -1
        #expect(policy.limit == 1)
        #expect(policy.byteLimit == 1)
        let clamped = policy
        try await withInMemoryClient { harness in
            try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    var seen: [String] = []
                    for try await event in harness.client.events(on: "feed", buffering: clamped) {
                        seen.append(event.data)
                        if event.data == "3" { break }
                    }
                    return seen
                }
                let peer = await harness.established()
                await harness.client.waitForConsumers(on: "feed")
                peer.send(
                    #"{"event":"pusher_internal:subscription_succeeded","channel":"feed","data":"{}"}"#,
                    #"{"event":"tick","channel":"feed","data":"1"}"#, #"{"event":"tick","channel":"feed","data":"2"}"#,
                    #"{"event":"tick","channel":"feed","data":"3"}"#)
                let seen = try await group.next() ?? []
                // Older ones may be dropped; the newest always arrives, in order.
                #expect(seen.last == "3")
                #expect(seen == seen.sorted())
            }
        }
    }
}
