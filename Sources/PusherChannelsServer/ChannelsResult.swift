// SPDX-License-Identifier: MIT

/// The answer to a channels query: the occupied channels (with the counts asked for) and the body
/// as returned.
public struct ChannelsResult: Sendable, Hashable {
    /// The occupied channels, by name, with the counts asked for with `info`.
    public let channels: [String: ChannelCounts]
    /// The server's JSON answer as returned, such as `{"channels":{"presence-room":{"user_count":2}}}`.
    public let responseBody: String

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - channels: The occupied channels with their counts.
    ///   - responseBody: The server's JSON answer.
    public init(channels: [String: ChannelCounts] = [:], responseBody: String = #"{"channels":{}}"#) {
        self.channels = channels
        self.responseBody = responseBody
    }

    /// Reads `{"channels": {name: {counts}}}`.
    init(parsing body: String, status: Int) throws(PusherServerError) {
        self.init(channels: try ChannelCounts.byChannel(inAnswer: body, status: status), responseBody: body)
    }
}
