// SPDX-License-Identifier: MIT

/// The answer to a generic call (``PusherServer/get(path:query:)``,
/// `post(path:query:body:)`): a 2xx status and the body as returned.
public struct PusherAPIResponse: Sendable, Hashable {
    /// The HTTP status (a 2xx: other statuses are ``PusherServerError/Code/httpStatus`` errors).
    public let httpStatus: Int
    /// The body exactly as returned. At most 16 MiB are read: a `get` whose answer is longer fails
    /// with `undecodableResponse`; a `post`, which the server accepted, keeps the first 16 MiB.
    public let body: [UInt8]

    /// A response with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - httpStatus: The HTTP status.
    ///   - body: The body's bytes.
    public init(httpStatus: Int = 200, body: [UInt8] = Array("{}".utf8)) {
        self.httpStatus = httpStatus
        self.body = body
    }

    /// The body as text (invalid UTF-8 replaced by U+FFFD).
    public var text: String { String(decoding: self.body, as: UTF8.self) }

    /// The body as JSON.
    ///
    /// ```swift
    /// let answer = try await pusher.get(path: "channels", query: ["filter_by_prefix": "presence-"])
    /// if case .object(let channels)? = try answer.json()["channels"] { print(channels.keys) }
    /// ```
    ///
    /// - Throws: ``PusherServerError`` `undecodableResponse` (with the status and the body) when
    ///   the body is not JSON.
    public func json() throws(PusherServerError) -> JSONValue {
        do {
            return try JSONValue(parsing: self.text)
        } catch {
            throw ResponseJSON.undecodable("the answer is not JSON", body: self.text, status: self.httpStatus)
        }
    }
}
