// SPDX-License-Identifier: MIT

import PusherCore

/// One member of a presence channel: what it said of itself, and the connections it is present on.
struct PresenceEntry: Sendable, Hashable {
    var info: JSONValue?
    var connections: Set<Int>
}
