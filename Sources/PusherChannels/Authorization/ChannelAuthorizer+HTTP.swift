// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
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
    ///   - headersProvider: Called before every request, for values that change (tokens that
    ///     expire); its headers override `headers`.
    ///
    /// A status other than 2xx, a network error, an answer that is not JSON or has no `auth` fail
    /// the subscription with `authorizationFailed`, carrying the HTTP status and body.
    ///
    /// Uses `URLSession`. On Linux (FoundationNetworking) it trusts only the system's certificate
    /// authorities; for a private CA, use ``requestBuilder(_:)`` with your own client via ``init(_:)``.
    ///
    /// With a tracer bootstrapped (swift-distributed-tracing), the request carries the trace context
    /// of the client's `pusher.authorize` span in its headers.
    public static func endpoint(
        _ url: URL,
        headers: [String: String] = [:],
        parameters: [String: String] = [:],
        headersProvider: (@Sendable () async throws -> [String: String])? = nil
    ) -> ChannelAuthorizer {
        .requestBuilder { socketID, channel in
            try await FormEncoding.post(
                to: url,
                fields: [("socket_id", socketID), ("channel_name", channel)],
                parameters: parameters,
                headers: headers,
                headersProvider: headersProvider
            )
        }
    }

    /// Authorizes with an HTTP request you build for each subscription, sent with `URLSession`; the
    /// answer is read as for ``endpoint(_:headers:parameters:headersProvider:)``. The trace context
    /// headers are added to your request as for `endpoint`.
    public static func requestBuilder(
        _ build: @escaping @Sendable (_ socketID: String, _ channel: String) async throws -> URLRequest
    ) -> ChannelAuthorizer {
        ChannelAuthorizer { socketID, channel in
            var request = try await build(socketID, channel)
            TraceContextInjector.inject(into: &request)
            let (body, response): (Data, URLResponse)
            do {
                (body, response) = try await URLSession.shared.data(for: request)
            } catch {
                throw PusherError(
                    .authorizationFailed, "the auth request failed: \(error)", channel: channel, cause: error)
            }
            return try Self.authorization(from: body, response: response, channel: channel)
        }
    }

    static func authorization(from body: Data, response: URLResponse, channel: String) throws(PusherError)
        -> ChannelAuthorization
    {
        let status = (response as? HTTPURLResponse)?.statusCode
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        func failure(_ message: String) -> PusherError {
            var error = PusherError(.authorizationFailed, message, channel: channel)
            error.httpStatus = status
            error.responseBody = text
            return error
        }
        guard let status, (200..<300).contains(status) else {
            throw failure("the auth endpoint answered HTTP \(status.map(String.init) ?? "?")")
        }
        guard let json = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)), case .object = json else {
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

/// `application/x-www-form-urlencoded` bodies.
enum FormEncoding {
    /// A form POST of `fields` and then `parameters` (sorted by name), with `headers` overridden by
    /// those of `headersProvider`.
    static func post(
        to url: URL,
        fields: [(String, String)],
        parameters: [String: String],
        headers: [String: String],
        headersProvider: (@Sendable () async throws -> [String: String])?
    ) async throws -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let allFields = fields + parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        request.httpBody = Data(Self.encode(allFields).utf8)
        var allHeaders = headers
        if let headersProvider {
            allHeaders.merge(try await headersProvider()) { _, provided in provided }
        }
        for (name, value) in allHeaders { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
    }
}
