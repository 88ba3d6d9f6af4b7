// SPDX-License-Identifier: MIT

import PusherCore

extension PusherProxy {
    /// Why the client cannot use this proxy, or nil when it can: a host, a port from 1 to 65535, a
    /// username that is not empty when given, and for SOCKS5 a
    /// username and password of at most 255 UTF-8 bytes each (RFC 1929 has one byte for each
    /// length). The reason never shows the username or password.
    var problem: String? {
        if self.host.isEmpty { return "no host" }
        if !(1...65535).contains(self.port) { return "the port must be a number from 1 to 65535" }
        if self.username?.isEmpty == true { return "an empty username (leave out the user info instead)" }
        if self.kind == .socks5 {
            if (self.username?.utf8.count ?? 0) > 255 { return "a SOCKS5 username is at most 255 bytes" }
            if (self.password?.utf8.count ?? 0) > 255 { return "a SOCKS5 password is at most 255 bytes" }
        }
        return nil
    }

    /// Throws `invalidConfiguration` with ``problem``, the proxy shown as its ``description``.
    func validate() throws(PusherError) {
        if let problem = self.problem {
            throw PusherError(.invalidConfiguration, "invalid option proxy \(self): \(problem)")
        }
    }
}
