// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

/// The answers of the auth endpoints as `doctor` received them, handed to the client when it
/// subscribes and signs in with them (its authorizer and user authenticator read them here), so
/// that the server judges exactly what the endpoints answered.
final class DoctorAnswerTable: Sendable {
    private struct Answers {
        var channels: [String: ChannelAuthorization] = [:]
        var user: UserAuthentication?
    }

    private let answers = NIOLockedValueBox(Answers())

    func set(_ authorization: ChannelAuthorization, for channel: String) {
        self.answers.withLockedValue { $0.channels[channel] = authorization }
    }

    func setUser(_ authentication: UserAuthentication) {
        self.answers.withLockedValue { $0.user = authentication }
    }

    /// The client's authorizer: the answer received for the channel.
    var authorizer: ChannelAuthorizer {
        ChannelAuthorizer { [answers] _, channel in
            guard let authorization = answers.withLockedValue({ $0.channels[channel] }) else {
                throw PusherError(
                    .authorizationFailed, "no answer of the auth endpoint for this channel", channel: channel)
            }
            return authorization
        }
    }

    /// The client's user authenticator: the answer received from the user-auth endpoint.
    var userAuthenticator: UserAuthenticator {
        UserAuthenticator { [answers] _ in
            guard let authentication = answers.withLockedValue({ $0.user }) else {
                throw PusherError(.signInFailed, "no answer of the user-auth endpoint")
            }
            return authentication
        }
    }
}
