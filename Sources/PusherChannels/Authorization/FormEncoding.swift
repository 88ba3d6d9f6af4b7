// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `application/x-www-form-urlencoded` bodies.
enum FormEncoding {
    /// A form POST of `fields` and then `parameters` overridden by those of `parametersProvider`
    /// (sorted by name), with `headers` overridden by those of `headersProvider` (names compared
    /// without case).
    ///
    /// - Throws: ``PusherError`` `invalidConfiguration` when a parameter has the name of one of
    ///   `fields` (`socket_id`, `channel_name`: the client sets them, and an endpoint reading the
    ///   last of two values would sign what the parameter says); what the providers throw.
    static func post(
        to url: URL,
        fields: [(String, String)],
        parameters: [String: String],
        headers: [String: String],
        headersProvider: (@Sendable () async throws -> [String: String])?,
        parametersProvider: (@Sendable () async throws -> [String: String])? = nil,
        channel: String? = nil
    ) async throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        var parameters = parameters
        if let parametersProvider {
            parameters.merge(try await parametersProvider()) { _, provided in provided }
        }
        for (name, _) in fields where parameters[name] != nil {
            throw PusherError(
                .invalidConfiguration,
                "the form parameter \(name) is set by the client; parameters and parametersProvider cannot replace it",
                channel: channel)
        }
        let allFields = fields + parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        request.body = .bytes(ByteBuffer(string: Self.encode(allFields)))
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let headersProvider {
            for (name, value) in try await headersProvider().sorted(by: { $0.key < $1.key }) {
                request.headers.replaceOrAdd(name: name, value: value)
            }
        }
        return request
    }

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(PercentEncoding.encode($0.0))=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
    }
}
