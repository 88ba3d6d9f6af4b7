// SPDX-License-Identifier: MIT

/// A user of the signed-in user's watchlist came online or went offline.
public struct WatchlistEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Status: String, Sendable, Hashable {
        case online, offline
    }

    public var userID: String
    public var status: Status

    public init(userID: String, status: Status) {
        self.userID = userID
        self.status = status
    }

    public var description: String { "\(self.userID) \(self.status.rawValue)" }

    /// Reads `pusher_internal:watchlist_events` data, `{"events":[{"name":"online"|"offline",
    /// "user_ids":[…]}, …]}`, one event per user id, in order. Numeric ids become strings.
    package static func events(from data: JSONValue) throws(PusherError) -> [WatchlistEvent] {
        guard case .array(let entries)? = data["events"] else {
            throw PusherError(.malformedMessage, "watchlist_events without an \"events\" array")
        }
        var events: [WatchlistEvent] = []
        for entry in entries {
            guard let name = entry["name"]?.stringValue, let status = Status(rawValue: name) else {
                throw PusherError(.malformedMessage, "a watchlist event whose name is neither online nor offline")
            }
            guard case .array(let ids)? = entry["user_ids"] else {
                throw PusherError(.malformedMessage, "a watchlist event without \"user_ids\"")
            }
            for id in ids {
                guard let userID = id.stringValue ?? id.intValue.map(String.init) else {
                    throw PusherError(.malformedMessage, "a watchlist user id that is neither a string nor a number")
                }
                events.append(WatchlistEvent(userID: userID, status: status))
            }
        }
        return events
    }
}
