// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Signs the connection in as a user (`pusher:signin`), now or as soon as the client is
    /// connected, and again after every reconnect, with ``PusherClientConfiguration/userAuthenticator``.
    /// Once the server confirms, the user's events (the server's "send to user") arrive on
    /// ``userEvents(named:buffering:)`` and watchlist changes on ``watchlistEvents``. Follow the
    /// outcome on ``userStates``; failures are also reported on ``errors``. Calling it again does
    /// nothing. The confirmation comes over the connection: a loop that waits for it (on
    /// ``userStates``) while its own consumer is over its limits (``BufferingPolicy/WhenFull/pauseReading``)
    /// waits until that consumer catches up.
    ///
    /// - Throws: ``PusherError`` `invalidConfiguration` without a user authenticator.
    public func signIn() throws(PusherError) {
        guard self.configuration.userAuthenticator != nil else {
            throw PusherError(.invalidConfiguration, "signIn() needs PusherClientConfiguration.userAuthenticator")
        }
        self.withEngine { driver in driver.perform(driver.engine.signIn(at: driver.clock.now)) }
    }

    /// The signed-in user, or nil.
    public var user: SignedInUser? { self.withEngine { $0.engine.user } }

    /// The sign-in state, starting with the current one.
    public nonisolated var userStates: PusherSequence<UserState> {
        PusherSequence { [self] in self.observe(ConsumerRegistry.Observer.user) { $0.publishedUser } }
    }

    /// Events the server sends to the signed-in user (on `#server-to-user-{id}`), optionally only
    /// those named `eventName`. Does not sign in by itself; see ``signIn()``.
    public nonisolated func userEvents(named eventName: String? = nil, buffering: BufferingPolicy? = nil)
        -> ChannelSequence<ChannelEvent>
    {
        let buffering = buffering ?? self.configuration.buffering
        return ChannelSequence(channel: nil) { [self] in
            self.registerEventConsumer(
                .user(eventName: eventName), channel: Self.userEventsConsumers, buffering: buffering)
        }
    }

    /// Online and offline changes of the users on the signed-in user's watchlist (`watchlist` in
    /// `user_data`; the feature must be enabled for the app), one element per user id.
    public nonisolated var watchlistEvents: PusherSequence<WatchlistEvent> {
        PusherSequence { [self] in self.observe(ConsumerRegistry.Observer.watchlist) }
    }
}
