// SPDX-License-Identifier: MIT

import NIOSSL

/// What the package's auth endpoint calls take from the options of the client that asks: its TLS
/// trust and its proxy setting, so that they reach the endpoint the way the WebSocket reaches the
/// server.
struct AuthEndpointSettings: Sendable {
    /// ``PusherClientConfiguration/tlsConfiguration``.
    var tlsConfiguration: TLSConfiguration?
    /// ``PusherClientConfiguration/proxy``.
    var proxy: PusherClientConfiguration.ProxySetting

    init(tlsConfiguration: TLSConfiguration? = nil, proxy: PusherClientConfiguration.ProxySetting = .direct) {
        self.tlsConfiguration = tlsConfiguration
        self.proxy = proxy
    }

    init(_ options: PusherClientConfiguration) {
        self.init(tlsConfiguration: options.tlsConfiguration, proxy: options.proxy)
    }
}
