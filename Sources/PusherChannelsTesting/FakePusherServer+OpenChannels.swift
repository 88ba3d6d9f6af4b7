// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore

extension FakePusherServer {
    /// The server's open TCP connections, whatever their stage (handshake, WebSocket, HTTP), counted
    /// against ``Limits/connections``.
    final class OpenChannels: Sendable {
        private let channels = NIOLockedValueBox<Set<ObjectIdentifier>>([])

        /// Adds `channel` unless `limit` connections are open already; it leaves the set when it
        /// closes. Returns whether it was added.
        func insert(_ channel: any Channel, limit: Int) -> Bool {
            let id = ObjectIdentifier(channel)
            let added = self.channels.withLockedValue { channels in
                guard channels.count < limit else { return false }
                channels.insert(id)
                return true
            }
            guard added else { return false }
            channel.closeFuture.whenComplete { _ in
                _ = self.channels.withLockedValue { $0.remove(id) }
            }
            return true
        }
    }
}
