// SPDX-License-Identifier: MIT

/// Work handed to the run loop: starting child tasks (only the loop owns the task group) and
/// clean-ups requested from synchronous contexts (stream termination handlers, deinits).
enum Command: Sendable {
    case startConnection(generation: Int, url: String, ConnectionHandle)
    case startReconnectTimer(generation: Int, delay: Duration, cancellation: OneShotSignal)
    case removeListener(Int)
    case shutdown
    case finish
}

/// What the client keeps for one socket.
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

/// Removes a consumer's registration when its iterator goes away (a `break` out of the loop drops
/// the iterator without cancelling anything).
final class ListenerToken: Sendable {
    let id: Int
    private let commands: AsyncStream<Command>.Continuation

    init(id: Int, commands: AsyncStream<Command>.Continuation) {
        self.id = id
        self.commands = commands
    }

    deinit {
        self.commands.yield(.removeListener(self.id))
    }
}
