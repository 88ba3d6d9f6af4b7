// SPDX-License-Identifier: MIT

import PusherCore

/// An element a ``ConsumerBuffer`` holds, with the bytes it counts against the byte limit.
package protocol BufferedElement: Sendable {
    /// About how many bytes the element keeps alive: its text, plus a fixed overhead.
    var bufferedByteCount: Int { get }
}

extension ChannelEvent: BufferedElement {
    /// The event's data and name (the channel's name is shared by every event of the channel).
    package var bufferedByteCount: Int { self.data.utf8.count + self.name.utf8.count + 64 }
}

extension PresenceChange: BufferedElement {
    package var bufferedByteCount: Int {
        switch self {
        case .snapshot(let snapshot): 64 + snapshot.count * 64
        case .added, .removed: 64
        }
    }
}
