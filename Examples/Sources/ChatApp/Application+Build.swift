// SPDX-License-Identifier: MIT

import Hummingbird
import Logging
import PusherChannels
import PusherChannelsServer

/// The app: the Pusher endpoints, `POST /messages`, and a `PusherClient` that listens to the
/// `announcements` channel, all in the application's `ServiceGroup` (`runService()` runs them and
/// stops them gracefully on SIGTERM or SIGINT).
public func buildApplication(
    _ settings: AppSettings, feed: ActivityFeed = ActivityFeed(), logger: Logger = Logger(label: "ChatApp")
) -> some ApplicationProtocol {
    // One of each for the whole app: `PusherServer` shares its HTTP connection pool across
    // requests, and one `PusherClient` multiplexes every subscription on one connection.
    let pusher = PusherServer(configuration: settings.pusher, logger: logger)
    let client = PusherClient(key: settings.pusher.key, configuration: settings.client, logger: logger)

    let router = Router()
    PusherRoutes(pusher: pusher, feed: feed, logger: logger).add(to: router)
    MessageRoutes(pusher: pusher, logger: logger).add(to: router)
    return Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "ChatApp"),
        services: [client, AnnouncementListener(client: client, feed: feed, logger: logger)],
        logger: logger
    )
}
