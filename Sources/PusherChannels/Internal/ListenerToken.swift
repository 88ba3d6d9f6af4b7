// SPDX-License-Identifier: MIT

/// Removes a consumer's registration when its iterator goes away (a `break` out of the loop drops
/// the iterator without cancelling anything).
final class ListenerToken: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    /// A token that asks the run loop to remove consumer `id`.
    convenience init(id: Int, commands: AsyncStream<Command>.Continuation) {
        self.init { commands.yield(.removeConsumer(id)) }
    }

    deinit {
        self.release()
    }
}
