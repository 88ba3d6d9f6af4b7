// SPDX-License-Identifier: MIT

/// The answer to a batch trigger: the counts asked for with `info`, one per event in the batch's
/// order, and the body as returned.
public struct BatchResult: Sendable, Hashable {
    /// The counts of each event's channel, in the order of the events, when an event asked for them
    /// with `info` (empty when the server reported none).
    public let events: [ChannelCounts]
    /// The server's JSON answer as returned, such as `{}` or `{"batch":[{…},{}]}`.
    public let responseBody: String

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - events: The counts of each event's channel, in order.
    ///   - responseBody: The server's JSON answer.
    public init(events: [ChannelCounts] = [], responseBody: String = "{}") {
        self.events = events
        self.responseBody = responseBody
    }

    /// Reads `{"batch": [{counts}, …]}` (or `{}`).
    init(parsing body: String, status: Int) throws(PusherServerError) {
        let fields = try ResponseJSON.object(body, status: status)
        var events = [ChannelCounts]()
        switch fields["batch"] {
        case nil, .null?: break
        case .array(let values)?:
            for value in values {
                guard let counts = ChannelCounts(value) else {
                    throw ResponseJSON.undecodable(
                        "an entry of the answer's batch is not counts", body: body, status: status)
                }
                events.append(counts)
            }
        default:
            throw ResponseJSON.undecodable("the answer's batch is not an array", body: body, status: status)
        }
        self.init(events: events, responseBody: body)
    }
}
