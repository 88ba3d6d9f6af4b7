// SPDX-License-Identifier: MIT

/// The counts the server reported for one channel, as far as they were asked for and apply.
public struct ChannelCounts: Sendable, Hashable {
    /// Connections subscribed to the channel, when reported.
    public var subscriptionCount: Int?
    /// Distinct users subscribed (presence channels), when reported.
    public var userCount: Int?

    /// Counts with the given values.
    ///
    /// - Parameters:
    ///   - subscriptionCount: Connections subscribed to the channel.
    ///   - userCount: Distinct users subscribed.
    public init(subscriptionCount: Int? = nil, userCount: Int? = nil) {
        self.subscriptionCount = subscriptionCount
        self.userCount = userCount
    }

    /// The counts of an object such as `{"subscription_count": 3, "user_count": 2}`; nil when it is
    /// not an object or a count is not an integer.
    init?(_ value: JSONValue) {
        guard case .object(let fields) = value,
            let subscriptionCount = ResponseJSON.optionalInt(fields["subscription_count"]),
            let userCount = ResponseJSON.optionalInt(fields["user_count"])
        else { return nil }
        self.init(subscriptionCount: subscriptionCount, userCount: userCount)
    }

    /// The counts by channel of an answer `{"channels": {name: {counts}}}` (or `{}`), which trigger and
    /// channels queries share.
    static func byChannel(inAnswer body: String, status: Int) throws(PusherServerError) -> [String: ChannelCounts] {
        let fields = try ResponseJSON.object(body, status: status)
        guard let channels = Self.byChannel(fields["channels"]) else {
            throw ResponseJSON.undecodable(
                "the answer's channels are not counts by channel", body: body, status: status)
        }
        return channels
    }

    /// The counts of every channel of an object `{name: {counts}}`; nil when one is not valid.
    static func byChannel(_ value: JSONValue?) -> [String: ChannelCounts]? {
        guard let value else { return [:] }
        guard case .object(let channels) = value else { return nil }
        var result = [String: ChannelCounts](minimumCapacity: channels.count)
        for (name, counts) in channels {
            guard let counts = ChannelCounts(counts) else { return nil }
            result[name] = counts
        }
        return result
    }
}
