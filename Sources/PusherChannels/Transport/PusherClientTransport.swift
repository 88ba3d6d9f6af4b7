// SPDX-License-Identifier: MIT

/// How a ``PusherClient`` reaches its server, for clients that should not open a WebSocket.
///
/// A client made without one connects over a WebSocket (SwiftNIO, with the configuration's TLS settings).
/// Values of this type come from `PusherChannelsTesting`: `FakePusherServer.clientTransport`
/// connects clients to that fake server in memory, so tests of code that uses a client need no
/// socket. Pass one to ``PusherClient/init(key:configuration:clock:logger:transport:)``. The type is
/// opaque: what lies behind it is not API.
public struct PusherClientTransport: Sendable {
    package let base: any PusherTransport

    package init(_ base: any PusherTransport) {
        self.base = base
    }
}
