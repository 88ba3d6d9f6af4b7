// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer

/// What the app needs to run: where it listens, and the Pusher app it works with.
public struct AppSettings: Sendable {
    /// The address the app listens on.
    public var host: String
    /// The port the app listens on; 0 takes any free port.
    public var port: Int
    /// The Pusher app, for publishing, answering your clients' authorization requests and
    /// verifying webhooks (its secret signs and checks them).
    public var pusher: PusherServerConfiguration
    /// How the app's own `PusherClient` connects to the same Pusher app.
    public var client: PusherClientConfiguration

    public init(
        pusher: PusherServerConfiguration, client: PusherClientConfiguration, host: String = "127.0.0.1",
        port: Int = 8080
    ) {
        self.pusher = pusher
        self.client = client
        self.host = host
        self.port = port
    }
}
