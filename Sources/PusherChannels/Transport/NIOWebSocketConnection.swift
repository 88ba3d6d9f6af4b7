// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket
import PusherCore

/// One attempt of ``NIOWebSocketTransport`` as the client drives it: writes go straight to the
/// channel (through its event loop, in order), aborting drops the attempt's sockets in any phase.
/// Its phase is the attempt's (connecting, open once upgraded, ended once dropped): no lock of its own.
final class NIOWebSocketConnection: TransportConnection {
    private let attempt: ConnectionAttempt
    private let budget: OutboundBudget
    /// Failed by ``abort()`` so that a connect or upgrade under way stops waiting.
    private let connected: EventLoopPromise<any Channel>
    private let upgraded: EventLoopPromise<Void>

    init(
        attempt: ConnectionAttempt, budget: OutboundBudget, connected: EventLoopPromise<any Channel>,
        upgraded: EventLoopPromise<Void>
    ) {
        self.attempt = attempt
        self.budget = budget
        self.connected = connected
        self.upgraded = upgraded
    }

    /// The upgrade is done: writes go to `channel`, pauses to `handler` (on the event loop).
    func opened(_ channel: any Channel, handler: PusherFrameHandler) {
        self.attempt.opened(channel, handler: handler)
    }

    private var open: (any Channel, NIOLoopBound<PusherFrameHandler>)? {
        self.attempt.open.map { ($0.channel, $0.handler) }
    }

    func send(_ text: String) {
        guard let (channel, _) = self.open else { return }
        let size = text.utf8.count
        guard self.budget.reserve(size) else { return self.abort() }
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        let budget = self.budget
        // Always through the event loop's queue: in order with the other writes and the close, and
        // never running the pipeline inside the caller (which may hold the client's lock).
        channel.eventLoop.execute {
            channel.writeAndFlush(frame).whenComplete { _ in budget.written(size) }
        }
    }

    func close() {
        guard let (channel, handler) = self.open else { return self.abort() }
        channel.eventLoop.execute { handler.value.startClose() }
    }

    func abort() {
        self.attempt.drop()
        self.connected.fail(CancellationError())
        self.upgraded.fail(CancellationError())
    }

    func resumeReading() {
        guard let (channel, handler) = self.open else { return }
        channel.eventLoop.execute { handler.value.resumeReading() }
    }

    /// Why the connection was dropped by the client, if its outbound budget overflowed.
    var overflow: PusherError? { self.budget.overflow }
}
