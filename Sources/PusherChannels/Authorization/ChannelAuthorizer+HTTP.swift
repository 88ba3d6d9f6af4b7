// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ChannelAuthorizer {
    /// Authorizes through your auth endpoint: a form-encoded POST of `socket_id` and `channel_name`
    /// (plus `parameters`), answered with JSON `{"auth", "channel_data"?, "shared_secret"?}`.
    ///
    /// - Parameters:
    ///   - url: Your auth endpoint.
    ///   - headers: Sent with every request.
    ///   - parameters: Extra form fields sent with every request.
    ///   - httpClient: The AsyncHTTPClient client that sends the requests. `nil` (the default) uses
    ///     one client shared by the package's endpoints, which follows no redirect; through the
    ///     client's ``PusherClientConfiguration/proxy`` the package sends the request itself on SwiftNIO
    ///     (see <doc:ProxiesHeadersAndFailover>). A client you pass ignores that proxy setting and
    ///     follows redirects as its configuration says (`HTTPClient.shared` follows them):
    ///     give it `redirectConfiguration: .disallow` to keep your headers from other origins.
    ///   - headersProvider: Called before every request, for values that change (tokens that
    ///     expire); its headers override `headers`.
    ///   - parametersProvider: Called before every request (pusher-js's `paramsProvider`), for form
    ///     fields that change; its fields override `parameters`.
    ///
    /// `socket_id` and `channel_name` are the client's: a parameter of either name (static or
    /// provided) fails the subscription with `invalidConfiguration`, and no request is sent. A
    /// provider that throws fails the subscription with `authorizationFailed` like a failed request.
    ///
    /// A status other than 2xx (a redirect included: none is followed), a network error, an answer
    /// larger than 64 KiB, an answer that is not JSON or has no `auth` fail the subscription with
    /// `authorizationFailed`, carrying the HTTP status and body.
    ///
    /// The request trusts what the client's WebSocket trusts: ``PusherClientConfiguration/tlsConfiguration``
    /// (for example certificate authorities added with
    /// ``PusherClientConfiguration/trustCertificateAuthorities(pemFile:keepingSystemTrustStore:)``), or the
    /// system's trust store when it is nil.
    ///
    /// With a tracer bootstrapped (swift-distributed-tracing), the request carries the trace context
    /// of the client's `pusher.authorize` span in its headers.
    public static func endpoint(
        _ url: URL,
        headers: [String: String] = [:],
        parameters: [String: String] = [:],
        httpClient: HTTPClient? = nil,
        headersProvider: (@Sendable () async throws -> [String: String])? = nil,
        parametersProvider: (@Sendable () async throws -> [String: String])? = nil
    ) -> ChannelAuthorizer {
        .requestBuilder(httpClient: httpClient) { socketID, channel in
            try await FormEncoding.post(
                to: url,
                fields: [("socket_id", socketID), ("channel_name", channel)],
                parameters: parameters,
                headers: headers,
                headersProvider: headersProvider,
                parametersProvider: parametersProvider,
                channel: channel
            )
        }
    }

    /// Authorizes with an AsyncHTTPClient request you build for each subscription (another method,
    /// a JSON body); the answer is read as for
    /// ``endpoint(_:headers:parameters:httpClient:headersProvider:parametersProvider:)``, and the request gets the same
    /// trace context headers, no redirect followed (with the default client) and, unless you set
    /// its `tlsConfiguration`, the client's TLS configuration.
    ///
    /// - Parameters:
    ///   - httpClient: The client that sends the requests; `nil` (the default) uses the package's
    ///     shared client, which follows no redirect, or through the client's
    ///     ``PusherClientConfiguration/proxy`` the package's own request on SwiftNIO (the body is read
    ///     whole first, at most 1 MiB).
    ///   - build: Returns the request for `socketID` and `channel`.
    public static func requestBuilder(
        httpClient: HTTPClient? = nil,
        _ build: @escaping @Sendable (_ socketID: String, _ channel: String) async throws -> HTTPClientRequest
    ) -> ChannelAuthorizer {
        ChannelAuthorizer(usingTLS: { socketID, channel, settings in
            let request = try await build(socketID, channel)
            let answer = try await AuthEndpointClient.send(
                request, client: httpClient, settings: settings, code: .authorizationFailed,
                endpoint: "the auth endpoint", channel: channel)
            return try Self.authorization(from: answer, channel: channel)
        })
    }

    static func authorization(from answer: AuthEndpointClient.Answer, channel: String) throws(PusherError)
        -> ChannelAuthorization
    {
        func failure(_ message: String) -> PusherError {
            var error = PusherError(.authorizationFailed, message, channel: channel)
            error.httpStatus = answer.status
            error.responseBody = String(decoding: answer.body.readableBytesView.prefix(4096), as: UTF8.self)
            return error
        }
        guard let json = try? JSONValue(parsing: answer.text), case .object = json else {
            throw failure("the auth endpoint's answer is not a JSON object")
        }
        guard let auth = json["auth"]?.stringValue, !auth.isEmpty else {
            throw failure("the auth endpoint's answer has no \"auth\"")
        }
        return ChannelAuthorization(
            auth: auth,
            channelData: json["channel_data"]?.stringValue,
            sharedSecret: json["shared_secret"]?.stringValue
        )
    }
}
