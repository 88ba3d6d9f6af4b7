// SPDX-License-Identifier: MIT

/// What a transport needs to know from the options for each connection. Settings of the transport
/// itself (such as TLS) go into its initializer.
package struct TransportConfiguration: Sendable {
    package var maximumMessageSize: Int

    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }
}
