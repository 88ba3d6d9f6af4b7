// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOSSL
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Authenticates the user for sign-in (``PusherClient/signIn()``), once per connection.
///
/// The closure runs in a child task of the client's `run()`; it must return (or throw) when that
/// task is cancelled.
public struct UserAuthenticator: Sendable {
    /// The authentication, given the TLS configuration and proxy setting of the client that asks
    /// (for the HTTP endpoint, which trusts what the WebSocket trusts and takes the same proxy).
    private let run: @Sendable (_ socketID: String, _ settings: AuthEndpointSettings) async throws -> UserAuthentication

    /// An authenticator that runs your code.
    ///
    /// - Parameter authenticate: Returns the user's authentication for the connection `socketID`.
    public init(_ authenticate: @escaping @Sendable (_ socketID: String) async throws -> UserAuthentication) {
        self.run = { socketID, _ in try await authenticate(socketID) }
    }

    private init(usingTLS run: @escaping @Sendable (String, AuthEndpointSettings) async throws -> UserAuthentication) {
        self.run = run
    }

    /// The authentication for `socketID`; the HTTP endpoint uses `settings` (the client's
    /// ``PusherClientConfiguration/tlsConfiguration`` and ``PusherClientConfiguration/proxy``).
    func authenticate(_ socketID: String, settings: AuthEndpointSettings = .init()) async throws -> UserAuthentication {
        try await self.run(socketID, settings)
    }

    /// Signs in-process with the app secret: the signature of `socket_id::user::user_data`. For
    /// servers that hold the secret; never in an app on users' devices.
    ///
    /// - Parameters:
    ///   - key: The application key.
    ///   - secret: The application secret.
    ///   - userData: The exact `user_data` JSON string, for example from
    ///     ``userData(id:info:watchlist:)``.
    public static func signing(key: String, secret: String, userData: @escaping @Sendable () async throws -> String)
        -> UserAuthenticator
    {
        UserAuthenticator { socketID in
            let userData = try await userData()
            return UserAuthentication(
                auth: PusherSignature.userAuthentication(
                    key: key, secret: secret, socketID: socketID, userData: userData),
                userData: userData
            )
        }
    }

    /// A compact `user_data` string: `{"id":…,"user_info":…,"watchlist":[…]}`.
    public static func userData(id: String, info: JSONValue? = nil, watchlist: [String] = []) -> String {
        UserAuthentication.userData(id: id, info: info, watchlist: watchlist)
    }

    /// Authenticates through your user-auth endpoint: a form-encoded POST of `socket_id` only (plus
    /// `parameters`), answered with JSON `{"auth", "user_data"}`. Requests are sent and answers
    /// read as for ``ChannelAuthorizer/endpoint(_:headers:parameters:httpClient:headersProvider:parametersProvider:)``
    /// (no redirect followed with the default client, answers of at most 64 KiB, the client's TLS
    /// trust, the trace context in the headers); failures are `signInFailed` errors carrying the
    /// HTTP status and body.
    ///
    /// - Parameters:
    ///   - url: Your user-auth endpoint.
    ///   - headers: Sent with every request.
    ///   - parameters: Extra form fields sent with every request.
    ///   - httpClient: The AsyncHTTPClient client that sends the requests; `nil` (the default)
    ///     uses the package's shared client, which follows no redirect, or through the client's
    ///     ``PusherClientConfiguration/proxy`` the package's own request on SwiftNIO.
    ///   - headersProvider: Called before every request; its headers override `headers`.
    ///   - parametersProvider: Called before every request; its fields override `parameters`.
    ///     A parameter named `socket_id` (static or provided) fails the sign-in with
    ///     `invalidConfiguration`, and no request is sent.
    public static func endpoint(
        _ url: URL,
        headers: [String: String] = [:],
        parameters: [String: String] = [:],
        httpClient: HTTPClient? = nil,
        headersProvider: (@Sendable () async throws -> [String: String])? = nil,
        parametersProvider: (@Sendable () async throws -> [String: String])? = nil
    ) -> UserAuthenticator {
        UserAuthenticator(usingTLS: { socketID, settings in
            let request = try await FormEncoding.post(
                to: url,
                fields: [("socket_id", socketID)],
                parameters: parameters,
                headers: headers,
                headersProvider: headersProvider,
                parametersProvider: parametersProvider
            )
            let answer = try await AuthEndpointClient.send(
                request, client: httpClient, settings: settings, code: .signInFailed,
                endpoint: "the user-auth endpoint", channel: nil)
            guard let json = try? JSONValue(parsing: answer.text),
                let auth = json["auth"]?.stringValue, !auth.isEmpty,
                let userData = json["user_data"]?.stringValue
            else {
                var error = PusherError(
                    .signInFailed,
                    "the user-auth endpoint's answer is not a JSON object with \"auth\" and \"user_data\" strings")
                error.httpStatus = answer.status
                error.responseBody = String(decoding: answer.body.readableBytesView.prefix(4096), as: UTF8.self)
                throw error
            }
            return UserAuthentication(auth: auth, userData: userData)
        })
    }
}
