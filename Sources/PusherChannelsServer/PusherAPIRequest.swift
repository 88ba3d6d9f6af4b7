// SPDX-License-Identifier: MIT

/// One request to the HTTP API before signing: method, path, the call's own query parameters, and
/// the exact body bytes that will be hashed and sent. Built by ``RequestBuilder``, pure data.
package struct PusherAPIRequest: Sendable, Hashable {
    package enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
    }

    /// One query parameter, its value unescaped.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package var method: Method
    /// The full path, such as `/apps/1234/events`.
    package var path: String
    /// The call's own parameters (`filter_by_prefix`, `info`); the signer adds the `auth_*` ones.
    package var query: [Parameter]
    /// The body exactly as it is hashed and sent (empty for GET).
    package var body: [UInt8]

    package init(method: Method, path: String, query: [Parameter] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }
}
