// SPDX-License-Identifier: MIT

/// Work handed to the run loop: starting child tasks (only the loop owns the task group) and
/// clean-ups requested from synchronous contexts (stream termination handlers, deinits).
enum Command: Sendable {
    case startConnection(generation: Int, url: String, ConnectionHandle)
    case startReconnectTimer(generation: Int, delay: Duration, cancellation: OneShotSignal)
    case authorize(channel: String, socketID: String)
    case reloadKey(channel: String, socketID: String)
    case authenticateUser(socketID: String)
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
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    /// A token that asks the run loop to remove consumer `id`.
    convenience init(id: Int, commands: AsyncStream<Command>.Continuation) {
        self.init { commands.yield(.removeListener(id)) }
    }

    deinit {
        self.release()
    }
}
