// SPDX-License-Identifier: MIT

import Logging
import NIOSSL
import PusherCore

/// The close frame a server sent.
package struct TransportClose: Sendable, Hashable {
    package var code: Int
    package var reason: String?

    package init(code: Int, reason: String?) {
        self.code = code
        self.reason = reason
    }
}
