// SPDX-License-Identifier: MIT

import Logging
import PusherChannels
import ServiceLifecycle

/// Listens to the public `announcements` channel with the app's `PusherClient` and records each
/// event. Both are services of the app's `ServiceGroup`: the client connects (and reconnects)
/// while the app runs, and a graceful shutdown stops this loop, then closes the connection.
struct AnnouncementListener: Service {
    static let channel = "announcements"

    let client: PusherClient
    let feed: ActivityFeed
    let logger: Logger

    func run() async throws {
        // Cancelling the loop's task unsubscribes and ends the loop; the sequence also finishes
        // when the client stops.
        try await cancelWhenGracefulShutdown {
            for try await event in self.client.events(on: Self.channel) {
                self.logger.info("announcement", metadata: ["event": "\(event.name)"])
                self.feed.record(.announcement(event))
            }
        }
    }
}
