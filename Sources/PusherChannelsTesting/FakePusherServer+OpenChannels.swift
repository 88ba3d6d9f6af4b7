// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore

extension FakePusherServer {
    /// The server's open TCP connections, whatever their stage (handshake, WebSocket, HTTP): counted
    /// against ``Limits/connections`` and all closed when the server stops.
    final class OpenChannels: Sendable {
        private struct State {
            var channels: [ObjectIdentifier: any Channel] = [:]
            /// Set by ``closeAll()``: connections accepted afterwards are refused.
            var isClosed = false
        }

        private let state = NIOLockedValueBox(State())

        /// Adds `channel` unless `limit` connections are open already or the server stopped; it
        /// leaves the set when it closes. Returns whether it was added.
        func insert(_ channel: any Channel, limit: Int) -> Bool {
            let id = ObjectIdentifier(channel)
            let added = self.state.withLockedValue { state in
                guard !state.isClosed, state.channels.count < limit else { return false }
                state.channels[id] = channel
                return true
            }
            guard added else { return false }
            channel.closeFuture.whenComplete { _ in
                _ = self.state.withLockedValue { $0.channels.removeValue(forKey: id) }
            }
            return true
        }

        /// Closes every open connection, and those accepted from now on.
        func closeAll() {
            let open = self.state.withLockedValue { state in
                state.isClosed = true
                return Array(state.channels.values)
            }
            for channel in open { channel.close(promise: nil) }
        }
    }
}
