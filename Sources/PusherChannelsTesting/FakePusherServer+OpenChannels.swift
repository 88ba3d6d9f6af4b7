// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore

extension FakePusherServer {
    /// The server's open TCP connections, whatever their stage (handshake, WebSocket, HTTP): counted
    /// against ``Limits/connections`` and all closed when the server stops.
    final class OpenChannels: Sendable {
        private let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

        /// Adds `channel` unless `limit` connections are open already; it leaves the set when it
        /// closes. Returns whether it was added.
        func insert(_ channel: any Channel, limit: Int) -> Bool {
            let id = ObjectIdentifier(channel)
            let added = self.channels.withLockedValue { channels in
                guard channels.count < limit else { return false }
                channels[id] = channel
                return true
            }
            guard added else { return false }
            channel.closeFuture.whenComplete { _ in
                _ = self.channels.withLockedValue { $0.removeValue(forKey: id) }
            }
            return true
        }

        /// Closes every open connection.
        func closeAll() {
            for channel in self.channels.withLockedValue({ Array($0.values) }) { channel.close(promise: nil) }
        }
    }
}
