// SPDX-License-Identifier: MIT

/// What a transport needs to know from the options for each connection. Settings of the transport
/// itself (such as TLS) go into its initializer.
package struct TransportConfiguration: Sendable {
    package var maximumMessageSize: Int
    /// Headers added to the upgrade request (checked: none is the transport's own).
    package var headers: [(name: String, value: String)] = []

    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }
}
