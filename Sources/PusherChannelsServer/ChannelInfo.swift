// SPDX-License-Identifier: MIT

/// The answer to a one-channel query: whether it is occupied, the counts asked for, and the body as
/// returned.
public struct ChannelInfo: Sendable, Hashable {
    /// The channel's name.
    public let name: String
    /// Whether the channel has at least one subscriber.
    public let occupied: Bool
    /// The counts asked for with `info`.
    public let counts: ChannelCounts
    /// The server's JSON answer as returned, such as `{"occupied":true,"user_count":2}`.
    public let responseBody: String

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - name: The channel's name.
    ///   - occupied: Whether the channel has a subscriber.
    ///   - counts: The counts.
    ///   - responseBody: The server's JSON answer.
    public init(name: String, occupied: Bool, counts: ChannelCounts = ChannelCounts(), responseBody: String) {
        self.name = name
        self.occupied = occupied
        self.counts = counts
        self.responseBody = responseBody
    }

    /// Reads `{"occupied": bool, "user_count"?: n, "subscription_count"?: n}`.
    init(name: String, parsing body: String, status: Int) throws(PusherServerError) {
        let fields = try ResponseJSON.object(body, status: status)
        guard case .bool(let occupied)? = fields["occupied"] else {
            throw ResponseJSON.undecodable("the answer has no boolean occupied", body: body, status: status)
        }
        guard let counts = ChannelCounts(.object(fields)) else {
            throw ResponseJSON.undecodable("the answer's counts are not integers", body: body, status: status)
        }
        self.init(name: name, occupied: occupied, counts: counts, responseBody: body)
    }
}
