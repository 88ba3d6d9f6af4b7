// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore

/// One client connection of a ``PusherLoadServer``, as the server's actor sees it: what to write
/// to it (in order, by its writer task) and which of the configured channels it subscribed to.
final class LoadServerConnection {
    /// What the connection's writer task does next.
    enum Command: Sendable {
        /// Write these bytes (whole frames).
        case frame(ByteBuffer)
        /// Write this many pre-encoded events.
        case events(Int)
    }

    let commands: AsyncStream<Command>.Continuation
    /// Set when the connection ends: the writer stops writing events.
    let stopping: NIOLockedValueBox<Bool>
    private let channel: any Channel
    private let channelCount: Int
    private var subscribed: Set<String> = []

    init(
        commands: AsyncStream<Command>.Continuation, stopping: NIOLockedValueBox<Bool>, channel: any Channel,
        channelCount: Int
    ) {
        self.commands = commands
        self.stopping = stopping
        self.channel = channel
        self.channelCount = channelCount
    }

    /// Whether the connection subscribed to every configured channel.
    var isSubscribed: Bool { self.subscribed.count == self.channelCount }

    /// Records a subscription to one of the configured channels.
    func subscribe(_ channel: String) {
        self.subscribed.insert(channel)
    }

    /// Queues one text frame.
    func send(_ text: String) {
        self.commands.yield(.frame(PreEncodedEvents.textFrame(text)))
    }

    /// Stops writing and closes the socket.
    func stop() {
        self.stopping.withLockedValue { $0 = true }
        self.commands.finish()
        self.channel.close(promise: nil)
    }
}
