// SPDX-License-Identifier: MIT

import PusherCore

/// An element a ``Consumer`` holds, with the bytes it counts against the byte limit.
package protocol BufferedElement: Sendable {
    /// About how many bytes the element keeps alive: every string it holds, plus a fixed overhead.
    var bufferedByteCount: Int { get }
}

extension ChannelEvent: BufferedElement {
    /// The event's data, name, channel and user id (each may be as large as a message), plus 64;
    /// computed once per event.
    package var bufferedByteCount: Int { self.approximateByteCount }
}

extension PresenceChange: BufferedElement {
    /// The members the change carries: ids and `user_info`, every member of a snapshot.
    package var bufferedByteCount: Int {
        switch self {
        case .snapshot(let snapshot):
            snapshot.members.reduce(64 + (snapshot.me?.approximateByteCount ?? 0)) { $0 + $1.approximateByteCount }
        case .added(let member), .removed(let member): 64 + member.approximateByteCount
        }
    }
}
