// SPDX-License-Identifier: MIT

import PusherCore

/// A request with its signed query: what goes on the wire.
package struct SignedRequest: Sendable, Hashable {
    package let method: PusherAPIRequest.Method
    package let path: String
    /// Every query parameter, `auth_signature` included, sorted by name; values unescaped.
    package let parameters: [PusherAPIRequest.Parameter]
    /// The exact body bytes (their MD5 is `body_md5`).
    package let body: [UInt8]
    /// `METHOD\nPATH\nQUERY`, the text that was signed.
    package let stringToSign: String
    /// Lowercase hex HMAC-SHA256 of ``stringToSign`` under the secret.
    package let signature: String

    /// The query as `name=value&…` with values unescaped (the form the known-answer vectors list).
    package var queryString: String {
        self.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// The query as sent in the URL: names and values percent-encoded.
    package var encodedQueryString: String {
        self.parameters.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    /// The request target: path and encoded query.
    package var target: String { self.path + "?" + self.encodedQueryString }
}
