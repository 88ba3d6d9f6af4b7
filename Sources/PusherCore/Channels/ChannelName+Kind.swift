// SPDX-License-Identifier: MIT

extension ChannelName {
    /// The kind of channel `name` names, from its prefix alone (no validation): for names the client
    /// already accepted, such as those of received events.
    package static func kind(of name: String) -> Kind {
        if name.hasPrefix("private-encrypted-") { return .privateEncrypted }
        if name.hasPrefix("private-") { return .private }
        if name.hasPrefix("presence-") { return .presence }
        return .public
    }

    /// Whether `name` is a private-encrypted channel.
    package static func isEncrypted(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: "p") && name.hasPrefix("private-encrypted-")
    }
}
