// SPDX-License-Identifier: MIT

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
