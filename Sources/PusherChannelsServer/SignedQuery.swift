// SPDX-License-Identifier: MIT

/// The query string of a request signed as the HTTP API requires
/// (``PusherServer/signedQuery(method:path:query:body:timestamp:)``), for requests you send yourself.
///
/// Append ``queryString`` to the path after `?`, and send exactly the body bytes that were signed.
/// Nothing here is secret: the signature is made with the secret, which it does not reveal.
public struct SignedQuery: Sendable, Hashable, CustomStringConvertible {
    /// Every query parameter, the signer's (`auth_key`, `auth_timestamp`, `auth_version`,
    /// `body_md5`, `auth_signature`) included, by name, unescaped.
    public let parameters: [String: String]
    /// The query as it goes in the URL: `name=value` pairs sorted by name, values percent-encoded,
    /// joined by `&`.
    public let queryString: String
    /// `METHOD\nPATH\nQUERY`: the text that was signed (QUERY without `auth_signature`, unescaped).
    public let stringToSign: String
    /// Lowercase hex HMAC-SHA256 of ``stringToSign`` under the app secret (`auth_signature`).
    public let signature: String

    init(_ signed: SignedRequest) {
        var parameters: [String: String] = [:]
        for parameter in signed.parameters { parameters[parameter.name] = parameter.value }
        self.parameters = parameters
        self.queryString = signed.encodedQueryString
        self.stringToSign = signed.stringToSign
        self.signature = signed.signature
    }

    /// The query string.
    public var description: String { self.queryString }
}
