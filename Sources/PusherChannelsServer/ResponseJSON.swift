// SPDX-License-Identifier: MIT

/// Reading the JSON bodies of the HTTP API's answers.
enum ResponseJSON {
    /// The fields of `body`, which must be a JSON object; an empty body (a 204, say) has none.
    static func object(_ body: String, status: Int) throws(PusherServerError) -> [String: JSONValue] {
        if body.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard let value = try? JSONValue(parsing: body), case .object(let fields) = value else {
            throw Self.undecodable("the answer is not a JSON object", body: body, status: status)
        }
        return fields
    }

    /// `body` parsed as JSON, or nil when it is not JSON (an answer to a publishing call is read
    /// only for what it reports: the call succeeded with any 2xx).
    static func parsed(_ body: String) -> JSONValue? {
        try? JSONValue(parsing: body)
    }

    /// The error for an answer whose body is not what the call expects.
    static func undecodable(_ reason: String, body: String, status: Int) -> PusherServerError {
        PusherServerError(
            .undecodableResponse, reason, httpStatus: status, responseBody: PusherServerError.kept(body))
    }

    /// `.some(nil)` when `value` is absent or null, `.some(n)` for an integer, nil otherwise.
    static func optionalInt(_ value: JSONValue?) -> Int?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .number(let text)?: return Int(text).map { .some($0) }
        default: return nil
        }
    }
}
