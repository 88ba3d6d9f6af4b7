// SPDX-License-Identifier: MIT

extension PusherServer {
    /// Sends an event to every connection signed in as `userID` (a trigger on
    /// `#server-to-user-USER_ID`).
    ///
    /// ```swift
    /// try await pusher.sendToUser("alice", event: "invoice-ready", data: #"{"invoice":7}"#)
    /// ```
    ///
    /// > Important: Never retried; a retry after a timeout can deliver the event twice.
    ///
    /// - Parameters:
    ///   - userID: The user's id: characters `A-Z a-z 0-9 _ - = @ , . ;`.
    ///   - event: The event's name.
    ///   - data: The event's data, sent as it is.
    /// - Returns: The server's answer as returned (any 2xx is success, whatever the body).
    /// - Throws: ``PusherServerError``: `invalidArgument` or `limitExceeded` before anything is sent;
    ///   `httpStatus`, `timeout`, `transport` or `cancelled` after.
    @discardableResult
    public func sendToUser(_ userID: String, event: String, data: String) async throws(PusherServerError)
        -> TriggerResult
    {
        try await self.perform(.sendToUser, attributes: [:]) { (builder, nonce) throws(PusherServerError) in
            try RequestRules.checkUserID(userID)
            return try builder.trigger(
                channels: [RequestRules.serverToUserPrefix + userID], event: event, data: data, socketID: nil,
                info: [], nonce: nonce)
        } decode: { (response) in
            TriggerResult(parsing: response.body, status: response.status)
        }
    }

    /// Sends an event whose data is any `Encodable` value, encoded once as JSON, to every connection
    /// signed in as `userID`.
    ///
    /// ```swift
    /// struct Invoice: Encodable, Sendable { let number: Int }
    /// try await pusher.sendToUser("alice", event: "invoice-ready", data: Invoice(number: 7))
    /// ```
    ///
    /// - Parameters:
    ///   - userID: The user's id: characters `A-Z a-z 0-9 _ - = @ , . ;`.
    ///   - event: The event's name.
    ///   - data: The event's data, encoded with a `JSONEncoder` (slashes not escaped).
    /// - Returns: The server's answer as returned.
    /// - Throws: ``PusherServerError``, as `sendToUser(_:event:data:)`, and
    ///   `invalidArgument` when the data cannot be encoded.
    @discardableResult
    public func sendToUser(_ userID: String, event: String, data: some Encodable & Sendable)
        async throws(PusherServerError) -> TriggerResult
    {
        try await self.sendToUser(userID, event: event, data: try EventData.json(data))
    }

    /// Closes every connection of the user signed in as `userID`
    /// (`POST /apps/ID/users/USER_ID/terminate_connections`).
    ///
    /// ```swift
    /// try await pusher.terminateConnections(ofUser: "mallory")
    /// ```
    ///
    /// - Parameter userID: The user's id: characters `A-Z a-z 0-9 _ - = @ , . ;`.
    /// - Throws: ``PusherServerError``: `invalidArgument` before anything is sent; `httpStatus`,
    ///   `timeout`, `transport` or `cancelled` after.
    public func terminateConnections(ofUser userID: String) async throws(PusherServerError) {
        try await self.perform(.terminateConnections, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try builder.terminateConnections(userID: userID)
        } decode: { _ in
            ()
        }
    }
}
