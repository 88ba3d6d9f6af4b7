// SPDX-License-Identifier: MIT

import PusherChannels
import PusherCore

/// The per-event path without sockets, for the engine benchmark in `Benchmarks/`: pre-encoded
/// frames are decoded as the transport decodes them, go through the protocol engine in
/// socket-read-sized batches, into a consumer's buffer, and the consumer takes them. In this
/// package-only module, so the engine itself stays `package`.
public struct EngineWorkload: Sendable {
    private let batches: [[String]]
    /// How many events one ``run()`` delivers.
    public let events: Int

    /// Pre-encodes `events` frames of `payloadBytes` bytes of data on one channel, in batches of
    /// `batchSize` (about what one 64 KiB socket read holds).
    public init(events: Int, payloadBytes: Int = 100, batchSize: Int = 512) {
        let padding = String(repeating: "x", count: max(0, payloadBytes - 20))
        var frames: [String] = []
        frames.reserveCapacity(events)
        for index in 0..<events {
            let data = #"{\"i\":\#(index),\"pad\":\"\#(padding)\"}"#
            frames.append(#"{"event":"price","channel":"load","data":"\#(data)"}"#)
        }
        self.batches = stride(from: 0, to: frames.count, by: batchSize).map {
            Array(frames[$0..<min($0 + batchSize, frames.count)])
        }
        self.events = events
    }

    /// Connects an engine, subscribes one consumer, delivers every batch to it and drains it.
    ///
    /// - Returns: How many events the consumer took (``events`` when all went well).
    public func run() async throws -> Int {
        var engine = ClientEngine(configuration: .init())
        _ = engine.connect(at: .zero)
        _ = engine.transportOpened(generation: 1, at: .zero)
        let established =
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.1\",\"activity_timeout\":120}"}"#
        _ = engine.received([.text(established)], generation: 1, at: .zero)
        guard let (id, _) = try engine.addConsumer(.channel("load", eventName: nil, authorization: nil), at: .zero)
        else {
            return 0
        }
        _ = engine.received(
            [.text(#"{"event":"pusher_internal:subscription_succeeded","channel":"load","data":"{}"}"#)], generation: 1,
            at: .zero)
        let buffer = Consumer<ChannelEvent>(
            channel: "load", policy: BufferingPolicy(limit: 1 << 20, whenFull: .fail))
        var actions: [ClientEngine.Action] = []
        var staged: [ChannelEvent] = []
        var messages: [InboundMessage] = []
        var names = RecentNames()
        var taken = 0
        for batch in self.batches {
            messages.removeAll(keepingCapacity: true)
            for frame in batch {
                var frame = frame
                messages.append(frame.withUTF8 { InboundMessage(parsing: UnsafeRawBufferPointer($0), names: &names) })
            }
            actions.removeAll(keepingCapacity: true)
            engine.received(messages[...], generation: 1, at: .zero, into: &actions)
            for case .deliver(let event, id) in actions { staged.append(event) }
            _ = buffer.deliver(contentsOf: staged)
            for _ in staged where try await buffer.next() != nil { taken += 1 }
            staged.removeAll(keepingCapacity: true)
        }
        return taken
    }
}
