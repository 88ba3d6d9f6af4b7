// SPDX-License-Identifier: MIT

import PusherCore

/// Lets tests write channel names as literals (`"private-chat"`) where the engine takes a
/// ``ChannelName``, as they are written in the protocol's messages.
extension ChannelName: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) {
        self.init(unchecked: name)
    }
}
