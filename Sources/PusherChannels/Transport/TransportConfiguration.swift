// SPDX-License-Identifier: MIT

import NIOSSL

/// What a transport needs to know from the options.
package struct TransportConfiguration: Sendable {
    package var maximumMessageSize: Int
    package var tlsConfiguration: TLSConfiguration?
}
