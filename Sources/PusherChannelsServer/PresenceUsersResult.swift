// SPDX-License-Identifier: MIT

/// The answer to a presence channel's users query: the ids of its users and the body as returned.
public struct PresenceUsersResult: Sendable, Hashable {
    /// The ids of the users subscribed to the channel, in the server's order.
    public let userIDs: [String]
    /// The server's JSON answer as returned, such as `{"users":[{"id":"alice"}]}`.
    public let responseBody: String

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - userIDs: The ids of the users.
    ///   - responseBody: The server's JSON answer.
    public init(userIDs: [String], responseBody: String) {
        self.userIDs = userIDs
        self.responseBody = responseBody
    }

    /// Reads `{"users": [{"id": …}, …]}`; ids sent as numbers are kept as their text.
    init(parsing body: String, status: Int) throws(PusherServerError) {
        let fields = try ResponseJSON.object(body, status: status)
        guard case .array(let users)? = fields["users"] else {
            throw ResponseJSON.undecodable("the answer has no users array", body: body, status: status)
        }
        var ids = [String]()
        ids.reserveCapacity(users.count)
        for user in users {
            switch user {
            case .object(let user):
                switch user["id"] {
                case .string(let id)?, .number(let id)?: ids.append(id)
                default: throw ResponseJSON.undecodable("a user has no id", body: body, status: status)
                }
            default: throw ResponseJSON.undecodable("a user is not an object", body: body, status: status)
            }
        }
        self.init(userIDs: ids, responseBody: body)
    }
}
