// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore

extension FakePusherServer {
    /// The server's open TCP connections: WebSockets, counted against ``Limits/connections``, and
    /// the others (in their handshake, or HTTP), counted against ``Limits/pendingConnections``.
    final class OpenChannels: Sendable {
        /// Why a WebSocket upgrade was refused (answered as plain HTTP after).
        enum Refusal: Sendable {
            case origin
            case unavailable
        }

        private struct Counts {
            var pending: Set<ObjectIdentifier> = []
            var webSockets: Set<ObjectIdentifier> = []
            var refusals: [ObjectIdentifier: Refusal] = [:]
        }

        private let counts = NIOLockedValueBox(Counts())

        /// Adds a new connection unless `limit` are pending already; it leaves the count when it
        /// closes. Returns whether it was added.
        func insert(_ channel: any Channel, limit: Int) -> Bool {
            let id = ObjectIdentifier(channel)
            let added = self.counts.withLockedValue { counts in
                guard counts.pending.count < limit else { return false }
                counts.pending.insert(id)
                return true
            }
            guard added else { return false }
            channel.closeFuture.whenComplete { _ in
                self.counts.withLockedValue { counts in
                    counts.pending.remove(id)
                    counts.webSockets.remove(id)
                    counts.refusals[id] = nil
                }
            }
            return true
        }

        /// Counts a pending connection as a WebSocket, unless `limit` are open already; returns
        /// whether it did.
        func upgrade(_ channel: any Channel, limit: Int) -> Bool {
            let id = ObjectIdentifier(channel)
            return self.counts.withLockedValue { counts in
                guard counts.webSockets.count < limit, counts.pending.remove(id) != nil else { return false }
                counts.webSockets.insert(id)
                return true
            }
        }

        /// Notes why the connection's upgrade was refused, for its answer.
        func refuse(_ channel: any Channel, _ refusal: Refusal) {
            self.counts.withLockedValue { $0.refusals[ObjectIdentifier(channel)] = refusal }
        }

        /// Why the connection's upgrade was refused, if it was.
        func refusal(of channel: any Channel) -> Refusal? {
            self.counts.withLockedValue { $0.refusals[ObjectIdentifier(channel)] }
        }
    }
}
