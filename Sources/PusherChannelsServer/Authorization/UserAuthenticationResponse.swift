// SPDX-License-Identifier: MIT

import PusherCore

/// The answer to a client's user authentication (sign-in) request.
public struct UserAuthenticationResponse: Sendable, Hashable {
    /// The signature and the exact `user_data` it covers.
    public var authentication: UserAuthentication

    /// An answer carrying `authentication`.
    ///
    /// - Parameter authentication: The user authentication to send.
    public init(authentication: UserAuthentication) {
        self.authentication = authentication
    }

    /// The body to send back with status 200 and `Content-Type: application/json`:
    /// `{"auth":…,"user_data":…}`.
    public var json: String {
        #"{"auth":"# + JSONWriter.quoted(self.authentication.auth) + #","user_data":"#
            + JSONWriter.quoted(self.authentication.userData) + "}"
    }
}
