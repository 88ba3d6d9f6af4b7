// SPDX-License-Identifier: MIT

/// The user the server confirmed with `pusher:signin_success`.
public struct SignedInUser: Sendable, Hashable {
    /// The `id` of `user_data`.
    public var id: String
    /// The `user_info` of `user_data`, if any.
    public var info: JSONValue?
    /// The `user_data` string exactly as the server confirmed it.
    public var userData: String

    public init(id: String, info: JSONValue?, userData: String) {
        self.id = id
        self.info = info
        self.userData = userData
    }

    /// Reads `user_data`: a JSON object with a non-empty string `id`.
    public init(userData: String) throws(PusherError) {
        guard let value = try? JSONValue(parsing: userData), case .object = value else {
            throw PusherError(.signInFailed, "user_data is not a JSON object")
        }
        guard let id = value["id"]?.stringValue, !id.isEmpty else {
            throw PusherError(.signInFailed, "user_data has no non-empty string \"id\"")
        }
        self.init(id: id, info: value["user_info"], userData: userData)
    }

    /// The channel the server sends this user's events on.
    public var serverToUserChannel: String { "#server-to-user-\(self.id)" }
}

/// Whether the client is signed in as a user.
public enum UserState: Sendable, Hashable, CustomStringConvertible {
    /// `signIn()` was not called.
    case signedOut
    /// Waiting for a connection, the user authenticator or the server's confirmation (again after
    /// every reconnect).
    case signingIn
    case signedIn(SignedInUser)
    /// The last attempt failed; the next reconnect tries again.
    case failed(PusherError)

    public var user: SignedInUser? {
        if case .signedIn(let user) = self { return user }
        return nil
    }

    public var description: String {
        switch self {
        case .signedOut: "signedOut"
        case .signingIn: "signingIn"
        case .signedIn(let user): "signedIn(\(user.id))"
        case .failed(let error): "failed(\(error))"
        }
    }
}

/// User sign-in (`pusher:signin`) across connections: authenticate for the current socket id, send
/// the sign-in, and on the server's confirmation subscribe the user's server-to-user channel; again
/// after every reconnect. Answers for an older socket id are discarded.
///
/// Pure: it returns ``Action``s for the driver.
public struct SignInStateMachine: Sendable {
    public enum Action: Sendable, Hashable {
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

    public init() {}

    public var user: SignedInUser? {
        if case .signedIn(let user) = self.phase { return user }
        return nil
    }

    /// The user asked to sign in; idempotent.
    public mutating func signIn() -> [Action] {
        guard !self.wanted else { return [] }
        self.wanted = true
        guard let socketID else { return [.publish(.signingIn)] }
        self.phase = .authenticating(socketID: socketID)
        return [.publish(.signingIn), .authenticate(socketID: socketID)]
    }

    public mutating func connected(socketID: String) -> [Action] {
        self.socketID = socketID
        guard self.wanted else { return [] }
        self.phase = .authenticating(socketID: socketID)
        return [.publish(.signingIn), .authenticate(socketID: socketID)]
    }

    public mutating func disconnected() -> [Action] {
        self.socketID = nil
        let wasSignedIn = self.user != nil
        self.phase = .idle
        return self.wanted && wasSignedIn ? [.publish(.signingIn)] : []
    }

    public mutating func authenticated(socketID: String, auth: String, userData: String) -> [Action] {
        guard self.phase == .authenticating(socketID: socketID) else { return [] }
        self.phase = .awaitingConfirmation(socketID: socketID)
        return [.sendSignIn(auth: auth, userData: userData)]
    }

    public mutating func authenticationFailed(socketID: String, error: PusherError) -> [Action] {
        guard self.phase == .authenticating(socketID: socketID) else { return [] }
        self.phase = .idle
        return [.report(error), .publish(.failed(error))]
    }

    /// `pusher:signin_success` arrived with `userData`.
    public mutating func signInSucceeded(userData: String?) -> [Action] {
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

    /// A `pusher:error` arrived while the sign-in waited for confirmation: the server refused it.
    public mutating func serverError(_ error: PusherError) -> [Action] {
        guard case .awaitingConfirmation = self.phase else { return [] }
        self.phase = .idle
        var failure = error
        failure.code = .signInFailed
        return [.publish(.failed(failure))]
    }
}
