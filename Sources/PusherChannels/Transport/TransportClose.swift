// SPDX-License-Identifier: MIT

/// The close frame a server sent.
package struct TransportClose: Sendable, Hashable {
    package var code: Int
    package var reason: String?

    package init(code: Int, reason: String?) {
        self.code = code
        self.reason = reason
    }
}
