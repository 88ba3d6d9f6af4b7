// SPDX-License-Identifier: MIT

/// A channel attribute the HTTP API can report: asked for with `info` on triggers, batch triggers,
/// and the channel queries.
///
/// ```swift
/// let result = try await pusher.trigger(channel: "presence-room", event: "joined", data: "{}", info: [.userCount])
/// let users = result.channels["presence-room"]?.userCount
/// ```
public enum ChannelAttribute: String, Sendable, Hashable, CaseIterable {
    /// How many connections are subscribed to the channel (the app must have subscription counting
    /// enabled).
    case subscriptionCount = "subscription_count"
    /// How many distinct users are subscribed: presence channels only.
    case userCount = "user_count"

    /// The `info` value: the attributes' names joined by commas, each once, in the given order.
    static func infoValue(_ attributes: [ChannelAttribute]) -> String? {
        var seen = Set<ChannelAttribute>()
        let names = attributes.filter { seen.insert($0).inserted }.map(\.rawValue)
        return names.isEmpty ? nil : names.joined(separator: ",")
    }
}
