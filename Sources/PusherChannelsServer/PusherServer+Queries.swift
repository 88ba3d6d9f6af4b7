// SPDX-License-Identifier: MIT

extension PusherServer {
    /// Lists the app's occupied channels (`GET /apps/ID/channels`).
    ///
    /// ```swift
    /// let all = try await pusher.channels()
    /// let rooms = try await pusher.channels(prefix: "presence-", info: [.userCount])
    /// for (name, counts) in rooms.channels { print(name, counts.userCount ?? 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: Only channels whose names start with this (`filter_by_prefix`).
    ///   - info: The counts to report for each channel; ``ChannelAttribute/userCount`` needs a
    ///     `presence-` prefix.
    /// - Returns: The channels with their counts, and the server's answer as returned.
    /// - Throws: ``PusherServerError``: `invalidArgument` before anything is sent; `httpStatus`,
    ///   `timeout`, `transport`, `cancelled` or `undecodableResponse` after.
    public func channels(prefix: String? = nil, info: [ChannelAttribute] = []) async throws(PusherServerError)
        -> ChannelsResult
    {
        try await self.perform(.channels, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try builder.channels(prefix: prefix, info: info)
        } decode: { (response) throws(PusherServerError) in
            try ChannelsResult(parsing: response.body, status: response.status)
        }
    }

    /// Reports whether a channel is occupied and its counts (`GET /apps/ID/channels/NAME`).
    ///
    /// ```swift
    /// let room = try await pusher.channel("presence-room", info: [.userCount, .subscriptionCount])
    /// if room.occupied { print(room.counts.userCount ?? 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The channel's name.
    ///   - info: The counts to report; ``ChannelAttribute/userCount`` on presence channels only.
    /// - Returns: Whether it is occupied, its counts, and the server's answer as returned.
    /// - Throws: ``PusherServerError``: `invalidArgument` or `limitExceeded` before anything is sent;
    ///   `httpStatus`, `timeout`, `transport`, `cancelled` or `undecodableResponse` after.
    public func channel(_ name: String, info: [ChannelAttribute] = []) async throws(PusherServerError) -> ChannelInfo {
        try await self.perform(.channel, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try builder.channel(name, info: info)
        } decode: { (response) throws(PusherServerError) in
            try ChannelInfo(name: name, parsing: response.body, status: response.status)
        }
    }

    /// Lists the users of a presence channel (`GET /apps/ID/channels/NAME/users`).
    ///
    /// ```swift
    /// let users = try await pusher.users(inPresenceChannel: "presence-room")
    /// print(users.userIDs)
    /// ```
    ///
    /// - Parameter name: The presence channel's name (`presence-…`).
    /// - Returns: The users' ids and the server's answer as returned.
    /// - Throws: ``PusherServerError``: `invalidArgument` or `limitExceeded` before anything is sent;
    ///   `httpStatus`, `timeout`, `transport`, `cancelled` or `undecodableResponse` after.
    public func users(inPresenceChannel name: String) async throws(PusherServerError) -> PresenceUsersResult {
        try await self.perform(.users, attributes: [:]) { (builder, _) throws(PusherServerError) in
            try builder.users(inPresenceChannel: name)
        } decode: { (response) throws(PusherServerError) in
            try PresenceUsersResult(parsing: response.body, status: response.status)
        }
    }
}
