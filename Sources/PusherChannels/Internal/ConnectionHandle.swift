// SPDX-License-Identifier: MIT

/// What the client keeps for one socket: its outbox, and the signals that abort it and re-arm its
/// watchdog.
struct ConnectionHandle: Sendable {
    enum Frame: Sendable {
        case text(String)
        case close
    }

    let outbox: AsyncStream<Frame>.Continuation
    let frames: AsyncStream<Frame>
    let abort = OneShotSignal()
    let rearmWatchdog = WakeupSignal()

    init() {
        (self.frames, self.outbox) = AsyncStream.makeStream()
    }
}
