// SPDX-License-Identifier: MIT

/// Removes a consumer's registration when its iterator goes away (a `break` out of the loop drops
/// the iterator without cancelling anything).
final class ListenerToken: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    /// A token that ends `ticket`'s registration, asking the run loop to remove the consumer once
    /// the engine has it.
    convenience init(ticket: ConsumerTicket, commands: AsyncStream<Command>.Continuation) {
        self.init {
            if let id = ticket.release() { commands.yield(.removeConsumer(id)) }
        }
    }

    deinit {
        self.release()
    }
}
