// SPDX-License-Identifier: MIT

/// The answer to a trigger: the counts the server reported, its status and its body as returned.
///
/// Any 2xx means the server accepted the event, whatever the body: Pusher, Laravel Reverb and
/// pusher-fake answer `{}` (or `{"channels":{…}}` when `info` asked for counts), soketi answers
/// `{"ok":true}`, and a proxy in between may answer `OK`. Counts are read only where the body has
/// them.
public struct TriggerResult: Sendable, Hashable {
    /// The counts of each channel the server reported (with `info`); a channel it reported nothing
    /// about, or whose counts are not valid, is absent.
    public let channels: [String: ChannelCounts]
    /// The server's answer as returned, such as `{}`; not necessarily JSON.
    public let responseBody: String
    /// The HTTP status of the answer (a 2xx).
    public let httpStatus: Int

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - channels: The counts of each channel.
    ///   - responseBody: The server's answer.
    ///   - httpStatus: The answer's HTTP status.
    public init(channels: [String: ChannelCounts] = [:], responseBody: String = "{}", httpStatus: Int = 200) {
        self.channels = channels
        self.responseBody = responseBody
        self.httpStatus = httpStatus
    }

    /// Reads the counts of `{"channels": {name: {counts}, …}}` where they are; never fails.
    init(parsing body: String, status: Int) {
        var channels: [String: ChannelCounts] = [:]
        if case .object(let fields)? = ResponseJSON.parsed(body),
            case .object(let byChannel)? = fields["channels"]
        {
            for (name, value) in byChannel {
                if let counts = ChannelCounts(value) { channels[name] = counts }
            }
        }
        self.init(channels: channels, responseBody: body, httpStatus: status)
    }
}
