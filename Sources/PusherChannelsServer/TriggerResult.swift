// SPDX-License-Identifier: MIT

/// The answer to a trigger: the counts asked for with `info`, and the body as returned.
public struct TriggerResult: Sendable, Hashable {
    /// The counts of each channel, when `info` asked for them (empty otherwise).
    public let channels: [String: ChannelCounts]
    /// The server's JSON answer as returned, such as `{}`.
    public let responseBody: String

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - channels: The counts of each channel.
    ///   - responseBody: The server's JSON answer.
    public init(channels: [String: ChannelCounts] = [:], responseBody: String = "{}") {
        self.channels = channels
        self.responseBody = responseBody
    }

    /// Reads `{"channels": {name: {counts}}}` (or `{}`).
    init(parsing body: String, status: Int) throws(PusherServerError) {
        self.init(channels: try ChannelCounts.byChannel(inAnswer: body, status: status), responseBody: body)
    }
}
