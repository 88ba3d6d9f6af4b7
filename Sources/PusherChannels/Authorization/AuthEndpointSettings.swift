// SPDX-License-Identifier: MIT

import NIOSSL

/// What the package's auth endpoint calls take from the configuration of the client that asks: its TLS
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

    init(_ configuration: PusherClientConfiguration) {
        self.init(tlsConfiguration: configuration.tlsConfiguration, proxy: configuration.proxy)
    }
}
