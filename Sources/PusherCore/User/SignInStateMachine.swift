// SPDX-License-Identifier: MIT

/// User sign-in (`pusher:signin`) across connections: authenticate for the current socket id, send
/// the sign-in, and on the server's confirmation subscribe the user's server-to-user channel; again
/// after every reconnect. Answers for an older socket id are discarded.
///
/// Pure: it returns ``Action``s for the driver.
package struct SignInStateMachine: Sendable {
    package enum Action: Sendable, Hashable {
        /// Ask the user authenticator for `socketID`; report with `authenticated` or `authenticationFailed`.
        case authenticate(socketID: String)
        /// Send `pusher:signin`.
        case sendSignIn(auth: String, userData: String)
        /// Send `pusher:subscribe` for the user's server-to-user channel.
        case subscribe(channel: String)
        case publish(UserState)
        case report(PusherError)
    }

    private enum Phase: Sendable, Hashable {
        case idle
        case authenticating(socketID: String)
        case awaitingConfirmation(socketID: String)
        case signedIn(SignedInUser)
    }

    private var wanted = false
    private var phase = Phase.idle
    private var socketID: String?

    package init() {}

    package var user: SignedInUser? {
        if case .signedIn(let user) = self.phase { return user }
        return nil
    }

    /// The user asked to sign in; idempotent.
    package mutating func signIn() -> [Action] {
        guard !self.wanted else { return [] }
        self.wanted = true
        guard let socketID else { return [.publish(.signingIn)] }
        self.phase = .authenticating(socketID: socketID)
        return [.publish(.signingIn), .authenticate(socketID: socketID)]
    }

    package mutating func connected(socketID: String) -> [Action] {
        self.socketID = socketID
        guard self.wanted else { return [] }
        self.phase = .authenticating(socketID: socketID)
        return [.publish(.signingIn), .authenticate(socketID: socketID)]
    }

    package mutating func disconnected() -> [Action] {
        self.socketID = nil
        let wasSignedIn = self.user != nil
        self.phase = .idle
        return self.wanted && wasSignedIn ? [.publish(.signingIn)] : []
    }

    package mutating func authenticated(socketID: String, auth: String, userData: String) -> [Action] {
        guard self.phase == .authenticating(socketID: socketID) else { return [] }
        self.phase = .awaitingConfirmation(socketID: socketID)
        return [.sendSignIn(auth: auth, userData: userData)]
    }

    package mutating func authenticationFailed(socketID: String, error: PusherError) -> [Action] {
        guard self.phase == .authenticating(socketID: socketID) else { return [] }
        self.phase = .idle
        return [.report(error), .publish(.failed(error))]
    }

    /// `pusher:signin_success` arrived with `userData`.
    package mutating func signInSucceeded(userData: String?) -> [Action] {
        guard case .awaitingConfirmation = self.phase else { return [] }
        let user: SignedInUser
        do throws(PusherError) {
            guard let userData else { throw PusherError(.signInFailed, "pusher:signin_success without user_data") }
            user = try SignedInUser(userData: userData)
        } catch {
            self.phase = .idle
            var failure = error
            failure.message = "pusher:signin_success rejected: \(error.message)"
            return [.report(failure), .publish(.failed(failure))]
        }
        self.phase = .signedIn(user)
        return [.subscribe(channel: user.serverToUserChannel), .publish(.signedIn(user))]
    }

    /// A `pusher:error` arrived while the sign-in waited for confirmation. The protocol does not tie
    /// errors to requests, so one counts as the server's refusal only when it can be: it names no
    /// channel, and its code is not one of the 4300–4399 errors that are about something else (4301
    /// a client event over the rate limit, 4302 a watchlist over its limit, which comes *with* a
    /// successful sign-in). Others leave the sign-in waiting for its answer.
    package mutating func serverError(_ error: PusherError) -> [Action] {
        guard case .awaitingConfirmation = self.phase, Self.mayRefuseSignIn(error) else { return [] }
        self.phase = .idle
        var failure = error
        failure.code = .signInFailed
        return [.publish(.failed(failure))]
    }

    /// Whether a `pusher:error` may be the answer to a `pusher:signin`.
    static func mayRefuseSignIn(_ error: PusherError) -> Bool {
        guard error.channel == nil else { return false }
        if let code = error.closeCode, (4300...4399).contains(code) { return false }
        return true
    }
}
