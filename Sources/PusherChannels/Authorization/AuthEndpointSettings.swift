// SPDX-License-Identifier: MIT

import NIOSSL

/// What the package's auth endpoint calls take from the options of the client that asks: its TLS
/// trust and its proxy setting, so that they reach the endpoint the way the WebSocket reaches the
/// server.
struct AuthEndpointSettings: Sendable {
    /// ``PusherClientOptions/tlsConfiguration``.
    var tlsConfiguration: TLSConfiguration?
    /// ``PusherClientOptions/proxy``.
    var proxy: PusherClientOptions.ProxySetting

    init(tlsConfiguration: TLSConfiguration? = nil, proxy: PusherClientOptions.ProxySetting = .direct) {
        self.tlsConfiguration = tlsConfiguration
        self.proxy = proxy
    }

    init(_ options: PusherClientOptions) {
        self.init(tlsConfiguration: options.tlsConfiguration, proxy: options.proxy)
    }
}
