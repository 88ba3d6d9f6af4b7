// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// Authenticates the user for sign-in (``PusherClient/signIn()``), once per connection.
///
/// The closure runs in a child task of the client's `run()`; it must return (or throw) when that
/// task is cancelled.
public struct UserAuthenticator: Sendable {
    public typealias Authenticate = @Sendable (_ socketID: String) async throws -> UserAuthentication

    let authenticate: Authenticate

    /// An authenticator that runs your code.
    public init(_ authenticate: @escaping Authenticate) {
        self.authenticate = authenticate
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
    /// `parameters`), answered with JSON `{"auth", "user_data"}`. Failures carry the HTTP status and
    /// body, as for ``ChannelAuthorizer/endpoint(_:headers:parameters:headersProvider:)``.
    public static func endpoint(
        _ url: URL,
        headers: [String: String] = [:],
        parameters: [String: String] = [:],
        headersProvider: (@Sendable () async throws -> [String: String])? = nil
    ) -> UserAuthenticator {
        UserAuthenticator { socketID in
            var request = try await FormEncoding.post(
                to: url,
                fields: [("socket_id", socketID)],
                parameters: parameters,
                headers: headers,
                headersProvider: headersProvider
            )
            TraceContextInjector.inject(into: &request)
            let (body, response): (Data, URLResponse)
            do {
                (body, response) = try await URLSession.shared.data(for: request)
            } catch {
                throw PusherError(.signInFailed, "the user-auth request failed: \(error)", cause: error)
            }
            let status = (response as? HTTPURLResponse)?.statusCode
            func failure(_ message: String) -> PusherError {
                var error = PusherError(.signInFailed, message)
                error.httpStatus = status
                error.responseBody = String(decoding: body.prefix(4096), as: UTF8.self)
                return error
            }
            guard let status, (200..<300).contains(status) else {
                throw failure("the user-auth endpoint answered HTTP \(status.map(String.init) ?? "?")")
            }
            guard let json = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)),
                let auth = json["auth"]?.stringValue, !auth.isEmpty,
                let userData = json["user_data"]?.stringValue
            else {
                throw failure(
                    "the user-auth endpoint's answer is not a JSON object with \"auth\" and \"user_data\" strings")
            }
            return UserAuthentication(auth: auth, userData: userData)
        }
    }
}
