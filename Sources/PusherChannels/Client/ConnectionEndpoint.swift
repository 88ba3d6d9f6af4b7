// SPDX-License-Identifier: MIT

import PusherCore

/// An endpoint of the client and the WebSocket URL it makes with the client's key (checked once,
/// when the options are read or the endpoints switched).
struct ConnectionEndpoint: Sendable {
    var endpoint: PusherEndpoint
    var url: String

    init(_ endpoint: PusherEndpoint, key: String) throws(PusherError) {
        self.endpoint = endpoint
        self.url = try endpoint.url(key: key, client: PusherClient.clientName, version: PusherClient.version)
    }
}
