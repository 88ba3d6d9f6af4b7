// SPDX-License-Identifier: MIT

extension PusherServer {
    /// Sends a signed `GET /apps/ID/PATH` for an API path this library does not wrap, and returns
    /// the answer as it came.
    ///
    /// ```swift
    /// let answer = try await pusher.get(path: "channels", query: ["filter_by_prefix": "presence-", "info": "user_count"])
    /// print(answer.httpStatus, try answer.json())
    /// ```
    ///
    /// The request is signed, bounded by ``PusherServerConfiguration/timeout``, traced (span
    /// `pusher.get`) and counted (`call` = `get`) like every other call.
    ///
    /// - Parameters:
    ///   - path: The path under `/apps/ID/`, without a leading slash, such as `channels` or
    ///     `channels/presence-room/users`: segments of `A-Z a-z 0-9 - _ . ~ = @ , ;`.
    ///   - query: The request's own query parameters (unescaped; they are percent-encoded when sent
    ///     and signed unescaped). `auth_*` and `body_md5` are the signer's and cannot be given.
    /// - Returns: The 2xx status and the body.
    /// - Throws: ``PusherServerError``: `invalidArgument` before anything is sent (a path or a
    ///   parameter that cannot be sent); `httpStatus` (any status outside 2xx, with the body),
    ///   `timeout`, `transport` or `cancelled` after.
    public func get(path: String, query: [String: String] = [:]) async throws(PusherServerError)
        -> PusherAPIResponse
    {
        try await self.perform(.get, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try Self.genericRequest(.get, appID: builder.appID, path: path, query: query, body: [])
        } decode: { (response) in
            PusherAPIResponse(httpStatus: response.status, body: response.bytes)
        }
    }

    /// Sends a signed `POST /apps/ID/PATH` with `body` (as `application/json`) for an API path this
    /// library does not wrap, and returns the answer as it came.
    ///
    /// ```swift
    /// let answer = try await pusher.post(path: "users/alice/terminate_connections", body: Array("{}".utf8))
    /// ```
    ///
    /// > Important: Never retried: after a timeout or a transport error the server may have acted.
    ///
    /// - Parameters:
    ///   - path: The path under `/apps/ID/`, without a leading slash (see ``get(path:query:)``).
    ///   - query: The request's own query parameters; `auth_*` and `body_md5` cannot be given.
    ///   - body: The exact bytes to send (their MD5 is signed as `body_md5`).
    /// - Returns: The 2xx status and the body.
    /// - Throws: ``PusherServerError``, as ``get(path:query:)``.
    @discardableResult
    public func post(path: String, query: [String: String] = [:], body: some Collection<UInt8> & Sendable)
        async throws(PusherServerError) -> PusherAPIResponse
    {
        let bytes = Array(body)
        return try await self.perform(.post, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try Self.genericRequest(.post, appID: builder.appID, path: path, query: query, body: bytes)
        } decode: { (response) in
            PusherAPIResponse(httpStatus: response.status, body: response.bytes)
        }
    }

    /// Sends a signed `POST /apps/ID/PATH` whose body is `body`'s UTF-8 text (usually JSON).
    ///
    /// ```swift
    /// try await pusher.post(path: "events", body: #"{"name":"e","channels":["c"],"data":"{}"}"#)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path under `/apps/ID/`, without a leading slash (see ``get(path:query:)``).
    ///   - query: The request's own query parameters; `auth_*` and `body_md5` cannot be given.
    ///   - body: The text to send.
    /// - Returns: The 2xx status and the body.
    /// - Throws: ``PusherServerError``, as ``get(path:query:)``.
    @discardableResult
    public func post(path: String, query: [String: String] = [:], body: String) async throws(PusherServerError)
        -> PusherAPIResponse
    {
        try await self.post(path: path, query: query, body: Array(body.utf8))
    }

    /// Signs a request you send yourself: its query string with `auth_key`, `auth_timestamp`,
    /// `auth_version`, `body_md5` and `auth_signature`, made with this server's key and secret.
    ///
    /// ```swift
    /// let body = Array(#"{"name":"e","channels":["c"],"data":"{}"}"#.utf8)
    /// let signed = try pusher.signedQuery(method: "POST", path: "/apps/1234/events", body: body)
    /// // POST https://api-eu.pusher.com/apps/1234/events?\(signed.queryString) with exactly `body`
    /// ```
    ///
    /// - Parameters:
    ///   - method: `GET` or `POST`.
    ///   - path: The full path as sent, such as `/apps/1234/events`.
    ///   - query: The request's own query parameters, unescaped (names are lowercased, as the
    ///     protocol signs them). `auth_*` and `body_md5` are the signer's and cannot be given.
    ///   - body: The exact body bytes to send (empty for a GET).
    ///   - timestamp: The signing time in seconds since the epoch; now when nil. Servers refuse a
    ///     timestamp more than 600 s off their clock.
    /// - Returns: The signed query.
    /// - Throws: ``PusherServerError`` `invalidArgument` for another method, a path that does not
    ///   start with `/` or has characters that cannot be sent unescaped, or a reserved parameter.
    public func signedQuery(
        method: String, path: String, query: [String: String] = [:], body: [UInt8] = [], timestamp: Int? = nil
    ) throws(PusherServerError) -> SignedQuery {
        guard let method = PusherAPIRequest.Method(rawValue: method) else {
            throw PusherServerError(.invalidArgument, "the method \(method) is not GET or POST")
        }
        guard path.hasPrefix("/") else {
            throw PusherServerError(.invalidArgument, "the path \(path) does not start with /")
        }
        try Self.checkPath(String(path.dropFirst()))
        let request = PusherAPIRequest(method: method, path: path, query: try Self.parameters(query), body: body)
        let signed = try RequestSigner(key: self.configuration.key, secret: self.configuration.secret)
            .sign(request, timestamp: timestamp ?? self.timestamp())
        return SignedQuery(signed)
    }

    /// The request of a generic call: `/apps/ID/` + `path`, checked.
    private static func genericRequest(
        _ method: PusherAPIRequest.Method, appID: String, path: String, query: [String: String], body: [UInt8]
    ) throws(PusherServerError) -> PusherAPIRequest {
        if path.hasPrefix("/") {
            throw PusherServerError(
                .invalidArgument, "the path \(path) is under /apps/ID/: give it without the leading slash")
        }
        try Self.checkPath(path)
        return PusherAPIRequest(
            method: method, path: "/apps/\(appID)/\(path)", query: try Self.parameters(query), body: body)
    }

    /// At most this many bytes of a generic call's path.
    static let maximumPathBytes = 1024

    /// Refuses a path that is empty, too long, has an empty, `.` or `..` segment, or a character
    /// other than `A-Z a-z 0-9 - _ . ~ = @ , ;` and `/` between segments: it is signed as sent, so
    /// it must need no escaping.
    private static func checkPath(_ path: String) throws(PusherServerError) {
        guard !path.isEmpty, path.utf8.count <= Self.maximumPathBytes else {
            throw PusherServerError(.invalidArgument, "a path needs 1 to \(Self.maximumPathBytes) bytes")
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != "..", segment.utf8.allSatisfy(Self.isPathByte) else {
                throw PusherServerError(
                    .invalidArgument,
                    "the path \(path) has an empty, . or .. segment, or a character other than A-Z a-z 0-9 - _ . ~ = @ , ;"
                )
            }
        }
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-_.~=@,;".utf8.contains(byte)
        }
    }

    /// The query as parameters sorted by name; a name must be non-empty.
    private static func parameters(_ query: [String: String]) throws(PusherServerError) -> [PusherAPIRequest.Parameter]
    {
        var parameters: [PusherAPIRequest.Parameter] = []
        for (name, value) in query.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty else { throw PusherServerError(.invalidArgument, "a query parameter has no name") }
            parameters.append(.init(name, value))
        }
        return parameters
    }
}
