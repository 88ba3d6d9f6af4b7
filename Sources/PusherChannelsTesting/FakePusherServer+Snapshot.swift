// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// A copy of the server's state, for ``waitUntil(_:)`` conditions and assertions.
    public struct Snapshot: Sendable {
        public var connections: [Connection]
        /// Upgrade requests refused while ``refuseConnections(_:)`` was on.
        public var refusedConnections: Int
        /// Requests the auth endpoint received, in order.
        public var authRequests: [AuthRequest]
        /// Webhooks the receiver answered with a 2xx status (see ``Configuration/webhooks``).
        public var webhooksDelivered: Int
        /// Webhooks that got another status, no answer in time, or a transport error.
        public var webhooksFailed: Int

        public var openConnections: [Connection] { self.connections.filter(\.isOpen) }

        public func subscribers(of channel: String) -> Int {
            self.connections.filter { $0.isOpen && $0.subscriptions.contains(channel) }.count
        }

        /// Every message clients sent with this event name, in order.
        public func messages(named event: String) -> [ReceivedMessage] {
            self.connections.flatMap(\.received).filter { $0.event == event }
        }
    }
}
