// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClientConfiguration {
    /// Whether the client connects through a proxy: ``direct`` (the default), a given
    /// ``PusherProxy``, or the one the process environment names.
    ///
    /// The setting covers the WebSocket and the auth endpoints of
    /// ``ChannelAuthorizer/endpoint(_:headers:parameters:httpClient:headersProvider:parametersProvider:)``,
    /// ``ChannelAuthorizer/requestBuilder(httpClient:_:)`` and
    /// ``UserAuthenticator/endpoint(_:headers:parameters:httpClient:headersProvider:parametersProvider:)``,
    /// unless you pass them an `HTTPClient` of your own (then its configuration decides).
    public enum ProxySetting: Sendable, Hashable {
        /// No proxy: connect to the server directly.
        case direct
        /// Every connection goes through this proxy (`NO_PROXY` does not apply).
        case proxy(PusherProxy)
        /// The proxy of the process environment, read at each connection:
        /// `HTTPS_PROXY` (or `https_proxy`), else `ALL_PROXY` (or `all_proxy`), for `ws://` and
        /// `wss://` alike (`HTTP_PROXY` is not read). A value without a scheme is an HTTP proxy.
        /// `NO_PROXY` (or `no_proxy`) lists hosts reached directly, separated by commas: a name
        /// matches itself and its subdomains, `.example.com` (or `*.example.com`) its subdomains
        /// only, an IP address itself, `*` every host; a `:port` after an entry is ignored.
        /// Loopback is not exempt unless listed. An environment proxy URL that cannot be read
        /// fails each connection with `invalidConfiguration`, naming the variable.
        case environment
    }

    /// The proxy for a connection to `host`, or nil for a direct one; `environment` is called only
    /// for ``ProxySetting/environment``.
    package static func proxy(
        _ setting: ProxySetting, forHost host: String,
        environment: @autoclosure () -> [String: String] = ProxyEnvironment.process()
    ) throws(PusherError) -> PusherProxy? {
        switch setting {
        case .direct: nil
        case .proxy(let proxy): proxy
        case .environment: try ProxyEnvironment.proxy(forHost: host, environment: environment())
        }
    }
}
