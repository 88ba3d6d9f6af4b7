// SPDX-License-Identifier: MIT

import Logging

extension PusherClient {
    /// Creates a client that connects through `transport` instead of a WebSocket, with its timers
    /// on `clock`: in tests, a client connected in memory to a fake server (see
    /// ``PusherClientTransport``). Everything else behaves as with a WebSocket: the options'
    /// timeouts, backoff, buffering and limits apply; TLS settings have no effect.
    public init<C: Clock>(
        key: String, options: PusherClientOptions = .init(), clock: C, logger: Logger? = nil,
        transport: PusherClientTransport
    ) where C.Duration == Duration {
        self.init(key: key, options: options, clock: clock, logger: logger, transport: transport.base)
    }
}
