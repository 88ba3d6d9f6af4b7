// SPDX-License-Identifier: MIT

/// Reading the JSON bodies of the HTTP API's answers.
enum ResponseJSON {
    /// The fields of `body`, which must be a JSON object.
    static func object(_ body: String, status: Int) throws(PusherServerError) -> [String: JSONValue] {
        guard let value = try? JSONValue(parsing: body), case .object(let fields) = value else {
            throw Self.undecodable("the answer is not a JSON object", body: body, status: status)
        }
        return fields
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
