// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore

/// A ``TransportHandler`` for tests of a transport without the client: keeps the connection, what
/// each read handed over, and how often reading was resumed; answers reads with ``readsOn``.
final class RecordingTransportHandler: TransportHandler {
    private struct State {
        var connection: (any TransportConnection)?
        var messages: [InboundMessage] = []
        var resumed = 0
        var readsOn = true
    }

    private let state = NIOLockedValueBox(State())
    /// Every message handed over, for tests that wait for them.
    let arrivals: AsyncStream<InboundMessage>
    private let arrived: AsyncStream<InboundMessage>.Continuation

    init() {
        (self.arrivals, self.arrived) = AsyncStream.makeStream()
    }

    /// What ``received(_:)`` answers from now on.
    func setReadsOn(_ readsOn: Bool) {
        self.state.withLockedValue { $0.readsOn = readsOn }
    }

    var connection: (any TransportConnection)? { self.state.withLockedValue { $0.connection } }
    var resumedCount: Int { self.state.withLockedValue { $0.resumed } }

    /// The messages handed over since the last call.
    func take() -> [InboundMessage] {
        self.state.withLockedValue { state in
            defer { state.messages = [] }
            return state.messages
        }
    }

    func attemptStarted(_ connection: any TransportConnection) {
        self.state.withLockedValue { $0.connection = connection }
    }

    func opened() {}

    func received(_ messages: [InboundMessage]) -> Bool {
        for message in messages { self.arrived.yield(message) }
        return self.state.withLockedValue { state in
            state.messages.append(contentsOf: messages)
            return state.readsOn
        }
    }

    func readingResumed() {
        self.state.withLockedValue { $0.resumed += 1 }
    }
}
