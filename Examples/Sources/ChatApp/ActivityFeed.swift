// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer

/// What the app learned from Pusher: the events of verified webhooks and the announcements its
/// `PusherClient` received. A real app would update its database here; the tests read `entries`.
public final class ActivityFeed: Sendable {
    public enum Entry: Sendable {
        /// One event of a webhook whose signature was valid.
        case webhook(WebhookEvent)
        /// An event of the `announcements` channel, received by the app's own `PusherClient`.
        case announcement(ChannelEvent)
    }

    /// Everything recorded, in order; the newest 1,000 are kept while nobody reads.
    public let entries: AsyncStream<Entry>
    private let continuation: AsyncStream<Entry>.Continuation

    public init() {
        (self.entries, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1_000))
    }

    func record(_ entry: Entry) {
        self.continuation.yield(entry)
    }
}
