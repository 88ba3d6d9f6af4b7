// SPDX-License-Identifier: MIT

import PusherChannels
import PusherCore

/// The server's end of one in-memory connection: send frames to the client, read what it sent,
/// close or drop the connection.
///
/// What the test sends goes into the client's engine at once, on the test's own task, once the
/// client has opened the connection (earlier messages wait for that). While the client pauses
/// reading (a consumer is behind), messages wait here, as they would in a socket's buffers, and
/// the connection's task hands them over when the client reads again.
package final class InMemoryPeer: Sendable {
    private struct State: Sendable {
        var closeFrame: TransportClose?
        var clientClosed = false
        /// The client's end of the connection, once it is open.
        var handler: (any TransportHandler)?
        /// Messages not handed to the client yet, in order.
        var queue: [InboundMessage] = []
        /// A hand-over is under way (in whichever task sent): others only queue.
        var isDelivering = false
        var isPaused = false
        /// The client asked to read again after a pause.
        var resumeRequested = false
        /// The server closed or dropped the connection: the client reads what was sent before,
        /// then the connection's task returns.
        var isEnded = false
        /// The client dropped the connection: it ends at once, unread messages and all.
        var isAborted = false
        var writesStalled = false
        /// Texts the client wrote while writes were stalled.
        var stalledWrites: [String] = []
    }

    /// The URL the client connected to.
    package let url: String
    /// The state, with the connection's task as its one waiter (for the end, or a resume).
    private let state = WaitableState(State())
    private let sent = ArrivalLog<String>()
    private let budget: OutboundBudget

    init(url: String, outboundBufferLimit: Int) {
        self.url = url
        self.budget = OutboundBudget(limit: outboundBufferLimit)
    }

    // MARK: Server to client

    /// Sends text messages, delivered to the client as one batch (decoded here, as the real
    /// transport decodes on its reader's thread).
    package func send(_ texts: String...) {
        self.deliver(texts.map { InboundMessage(parsing: $0) })
    }

    /// Sends a binary frame.
    package func sendBinary() {
        self.deliver([.binary])
    }

    /// Sends `pusher:connection_established`.
    package func establish(socketID: String = "1.1", activityTimeout: Int = 120) {
        self.send(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":\#(activityTimeout)}"}"#
        )
    }

    /// Closes the connection with a close frame, after the messages sent before it.
    package func close(code: Int, reason: String? = nil) {
        self.state.update { state in
            if state.closeFrame == nil { state.closeFrame = TransportClose(code: code, reason: reason) }
            state.isEnded = true
        }
    }

    /// Ends the connection without a close frame (a reset), after the messages sent before it.
    package func drop() {
        self.state.update { $0.isEnded = true }
    }

    /// Ends the connection at once (the client dropped it, or its task was cancelled).
    func abort() {
        self.state.update { $0.isAborted = true }
    }

    /// While stalled, the client's writes are not taken (a server that stops reading): they count
    /// against the client's `outboundBufferLimit` until writes go on.
    package func stallWrites(_ stalled: Bool) {
        // Under the lock, so that a write made meanwhile comes after the released ones.
        self.state.withLock { state in
            state.writesStalled = stalled
            guard !stalled else { return }
            for text in state.stalledWrites {
                self.sent.append(text)
                self.budget.written(text.utf8.count)
            }
            state.stalledWrites = []
        }
    }

    var closeFrame: TransportClose? { self.state.withLock { $0.closeFrame } }

    /// Why the client dropped the connection, if its outbound budget overflowed.
    var overflow: PusherError? { self.budget.overflow }

    /// Queues `messages` and hands over what is queued, unless the client is not reading.
    private func deliver(_ messages: [InboundMessage]) {
        self.state.withLock { state in
            // Nothing is sent after the end.
            guard !state.isEnded, !state.isAborted else { return }
            state.queue.append(contentsOf: messages)
        }
        self.handOver()
    }

    /// Hands the queued messages to the client, in order, outside the lock; only one caller at a
    /// time does, and it goes on until the queue is empty or the client pauses.
    private func handOver() {
        while true {
            let next = self.state.withLock { state -> (any TransportHandler, [InboundMessage])? in
                guard !state.isDelivering, !state.isPaused, !state.isAborted, !state.queue.isEmpty,
                    let handler = state.handler
                else { return nil }
                state.isDelivering = true
                defer { state.queue = [] }
                return (handler, state.queue)
            }
            guard let (handler, batch) = next else { return }
            let readsOn = handler.received(batch)
            // Wakes the connection's task: a resume or the end may wait for this hand-over.
            self.state.update { state in
                state.isDelivering = false
                if !readsOn { state.isPaused = true }
            }
        }
    }

    /// The connection's life on the client's side: open, hand over, resume after pauses; returns
    /// once it is closed or dropped.
    func run(_ handler: any TransportHandler) async {
        handler.opened()
        self.state.withLock { $0.handler = handler }
        // The client's end is not kept once the connection is over (it refers to the client).
        defer { self.state.withLock { $0.handler = nil } }
        self.handOver()
        while true {
            let resume = await self.state.wait { state -> Bool? in
                // A hand-over under way finishes first: it may pause, or leave messages to read.
                guard !state.isDelivering else { return nil }
                if state.isAborted { return false }
                if state.resumeRequested {
                    state.resumeRequested = false
                    state.isPaused = false
                    return true
                }
                // The end comes after what was sent before it, as on a socket (a paused client
                // reads it once it reads again).
                if state.isEnded && state.queue.isEmpty { return false }
                return nil
            }
            // nil: the task was cancelled.
            guard resume == true else { return }
            handler.readingResumed()
            self.handOver()
        }
    }

    /// Appends `text` to what the client sent, as if it had (for a fake server's own markers).
    func record(_ text: String) {
        self.sent.append(text)
    }

    // MARK: Client to server

    /// Every text the client sent so far.
    package var received: [String] { self.sent.all }

    /// Whether the client started a close handshake.
    package var clientClosed: Bool { self.state.withLock { $0.clientClosed } }

    /// The next text the client sends (in order; waits until it does).
    package func nextMessage() async -> String {
        await self.sent.next()
    }

    /// The next text the client sends whose event is `event`, skipping others.
    package func nextMessage(named event: String) async -> String {
        while true {
            let text = await self.nextMessage()
            if text.contains(#""event":"\#(event)""#) { return text }
        }
    }

    var clientSide: any TransportConnection { ClientSide(peer: self) }

    /// The client's end. Its calls never call into the client (it may hold its lock).
    private struct ClientSide: TransportConnection {
        let peer: InMemoryPeer

        func send(_ text: String) {
            let size = text.utf8.count
            guard self.peer.budget.reserve(size) else { return self.abort() }
            let stalled = self.peer.state.withLock { state -> Bool in
                if state.writesStalled { state.stalledWrites.append(text) }
                return state.writesStalled
            }
            guard !stalled else { return }
            self.peer.sent.append(text)
            self.peer.budget.written(size)
        }

        func close() {
            // The peer answers a close at once, as a server does; what it sent before still arrives.
            self.peer.state.update { state in
                state.clientClosed = true
                if state.closeFrame == nil { state.closeFrame = TransportClose(code: 1000, reason: nil) }
                state.isEnded = true
            }
        }

        func abort() {
            self.peer.abort()
        }

        func resumeReading() {
            self.peer.state.update { $0.resumeRequested = true }
        }
    }
}
