// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// Signs the connection in as a user (`pusher:signin`), now or as soon as the client is
    /// connected, and again after every reconnect, with ``PusherClientOptions/userAuthenticator``.
    /// Once the server confirms, the user's events (the server's "send to user") arrive on
    /// ``userEvents(named:buffering:)`` and watchlist changes on ``watchlistEvents``. Follow the
    /// outcome on ``userStates``; failures are also reported on ``errors``. Calling it again does
    /// nothing.
    ///
    /// - Throws: ``PusherError`` `invalidConfiguration` without a user authenticator.
    public func signIn() throws(PusherError) {
        guard self.options.userAuthenticator != nil else {
            throw PusherError(.invalidConfiguration, "signIn() needs PusherClientOptions.userAuthenticator")
        }
        self.perform(self.signInMachine.signIn())
    }

    /// The signed-in user, or nil.
    public var user: SignedInUser? { self.signInMachine.user }

    /// The sign-in state, starting with the current one.
    public nonisolated var userStates: PusherSequence<UserState> {
        PusherSequence { [observers] in observers.observeUser() }
    }

    /// Events the server sends to the signed-in user (on `#server-to-user-{id}`), optionally only
    /// those named `eventName`. Does not sign in by itself; see ``signIn()``.
    public nonisolated func userEvents(named eventName: String? = nil, buffering: BufferingPolicy? = nil) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelSequence { () async throws(PusherError) in
            try await self.addListener(scope: .user(eventName: eventName), buffering: buffering)
        }
    }

    /// Online and offline changes of the users on the signed-in user's watchlist (`watchlist` in
    /// `user_data`; the feature must be enabled for the app), one element per user id.
    public nonisolated var watchlistEvents: PusherSequence<WatchlistEvent> {
        PusherSequence { [observers] in observers.observeWatchlist() }
    }

    func perform(_ actions: [SignInStateMachine.Action]) {
        for action in actions {
            switch action {
            case .authenticate(let socketID):
                self.log(.debug, "authenticating the user")
                self.commands.yield(.authenticateUser(socketID: socketID))
            case .sendSignIn(let auth, let userData):
                self.log(.debug, "signing in")
                self.sendOnReadyConnection(OutboundMessage.signIn(auth: auth, userData: userData))
            case .subscribe(let channel):
                self.sendOnReadyConnection(OutboundMessage.subscribe(channel: channel))
            case .publish(let state):
                self.log(.debug, "user state changed", ["pusher.user_state": "\(state)"])
                self.observers.publish(state)
            case .report(let error):
                self.report(error)
            }
        }
    }

    nonisolated func runUserAuthentication(socketID: String) async {
        guard let authenticator = self.options.userAuthenticator else { return }
        await self.timed(code: .signInFailed, what: "the user authenticator", channel: nil) {
            try await authenticator.authenticate(socketID)
        } completion: { result in
            await self.userAuthenticated(socketID: socketID, result: result)
        }
    }

    private func userAuthenticated(socketID: String, result: Result<UserAuthentication, PusherError>) {
        switch result {
        case .success(let authentication):
            self.perform(self.signInMachine.authenticated(socketID: socketID, auth: authentication.auth, userData: authentication.userData))
        case .failure(var error):
            if error.code != .signInFailed {
                error = PusherError(.signInFailed, error.message, cause: error)
            }
            self.perform(self.signInMachine.authenticationFailed(socketID: socketID, error: error))
        }
    }

    func signInSucceeded(_ message: PusherMessage) {
        let userData = (try? message.parsedData())?["user_data"]?.stringValue
        self.perform(self.signInMachine.signInSucceeded(userData: userData))
    }

    func watchlistReceived(_ message: PusherMessage) {
        do {
            for event in try WatchlistEvent.events(from: try message.parsedData()) { self.observers.notify(event) }
        } catch {
            self.report(error)
        }
    }

    /// Delivers an event of a `#server-to-user-` channel if it is the signed-in user's.
    func deliverToUser(_ message: PusherMessage) {
        guard let channel = message.channel, channel == self.signInMachine.user?.serverToUserChannel else { return }
        let event = ChannelEvent(channel: channel, name: message.event, data: message.data ?? "", userID: message.userID)
        var removed: [Int] = []
        self.fanOut(event, to: self.userListeners, removed: &removed)
        for id in removed { self.removeListener(id) }
    }
}
