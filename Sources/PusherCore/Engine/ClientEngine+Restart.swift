// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Drop the connection and connect again at once (see ``ConnectionStateMachine/restart(at:)``);
    /// subscriptions are kept and made again on the new connection.
    package mutating func restart(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.restart(at: now))
    }

    /// The client now tries `count` endpoints in turn (see ``ConnectionStateMachine/endpointsChanged(count:)``).
    package mutating func endpointsChanged(count: Int) {
        self.connection.endpointsChanged(count: count)
    }

    /// The client switched to another app's authorizer (with its key): whether there is one, and
    /// its in-process signing. Subscriptions are authorized afresh on the next connection.
    package mutating func authorizerChanged(
        hasAuthorizer: Bool,
        localAuthorization: (@Sendable (String, String) -> Result<ChannelAuthorization, PusherError>?)?
    ) {
        self.configuration.hasAuthorizer = hasAuthorizer
        self.configuration.localAuthorization = localAuthorization
    }
}
