// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

/// Answers clients' channel authorization and user authentication requests: validates the input,
/// then signs with ``PusherSignature`` (the implementation `ChannelAuthorizer.signing` uses too).
/// Pure: the app's key, secret and master key in, the answer out.
package struct AuthorizationSigner: Sendable {
    package let key: String
    package let secret: String
    /// The encryption master key's 32 bytes, for private-encrypted channels.
    package let masterKey: [UInt8]?

    package init(key: String, secret: String, masterKey: [UInt8]?) {
        self.key = key
        self.secret = secret
        self.masterKey = masterKey
    }

    /// The authorization of `channel` for `socketID`; `member` is who the client is on a presence
    /// channel (ignored for other channels).
    package func authorizeChannel(socketID: String, channel: String, member: PresenceMember?) throws(PusherServerError)
        -> ChannelAuthorization
    {
        var channelData: String?
        if ChannelName.kind(of: channel) == .presence {
            guard let member else {
                throw PusherServerError(
                    .invalidArgument, "authorizing a presence channel needs the presence member (user id and info)")
            }
            channelData = member.channelData
        }
        return try self.authorizeChannel(socketID: socketID, channel: channel, channelData: channelData)
    }

    /// The authorization of `channel` for `socketID`, signing `channelData` byte for byte on a
    /// presence channel (where it must be a JSON object with a non-empty `user_id`).
    package func authorizeChannel(socketID: String, channel: String, channelData: String?) throws(PusherServerError)
        -> ChannelAuthorization
    {
        try RequestRules.checkSocketID(socketID)
        let name: ChannelName
        do {
            name = try ChannelName(validating: channel)
        } catch {
            throw PusherServerError(.invalidArgument, "invalid channel name: \(error.message)")
        }
        switch name.kind {
        case .public:
            throw PusherServerError(
                .invalidArgument,
                "\(channel) is a public channel: only private-, presence- and private-encrypted- channels are authorized"
            )
        case .private:
            return PusherSignature.channelAuthorization(
                key: self.key, secret: self.secret, socketID: socketID, channel: channel)
        case .presence:
            guard let channelData else {
                throw PusherServerError(.invalidArgument, "authorizing a presence channel needs its channel_data")
            }
            try Self.validatePresence(channelData: channelData)
            return PusherSignature.channelAuthorization(
                key: self.key, secret: self.secret, socketID: socketID, channel: channel, channelData: channelData)
        case .privateEncrypted:
            guard let masterKey = self.masterKey else {
                throw PusherServerError(
                    .invalidConfiguration,
                    "authorizing a private-encrypted channel needs the configuration's encryption master key")
            }
            var authorization = PusherSignature.channelAuthorization(
                key: self.key, secret: self.secret, socketID: socketID, channel: channel)
            authorization.sharedSecret = EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: masterKey)
            return authorization
        }
    }

    /// The authentication of `socketID` as the user in `userData`, signed byte for byte (a JSON
    /// object with a non-empty string `id`).
    package func authenticateUser(socketID: String, userData: String) throws(PusherServerError) -> UserAuthentication {
        try RequestRules.checkSocketID(socketID)
        guard let json = try? JSONValue(parsing: userData), case .object = json else {
            throw PusherServerError(.invalidArgument, "user_data is not a JSON object")
        }
        guard let id = json["id"]?.stringValue, !id.isEmpty else {
            throw PusherServerError(.invalidArgument, "user_data needs a non-empty string \"id\"")
        }
        if let watchlist = json["watchlist"] {
            guard case .array(let ids) = watchlist, ids.allSatisfy({ $0.stringValue != nil }) else {
                throw PusherServerError(.invalidArgument, "user_data's \"watchlist\" is not an array of strings")
            }
        }
        return UserAuthentication(
            auth: PusherSignature.userAuthentication(
                key: self.key, secret: self.secret, socketID: socketID, userData: userData),
            userData: userData
        )
    }

    private static func validatePresence(channelData: String) throws(PusherServerError) {
        guard let json = try? JSONValue(parsing: channelData), case .object = json else {
            throw PusherServerError(.invalidArgument, "channel_data is not a JSON object")
        }
        guard let userID = json["user_id"]?.idValue, !userID.isEmpty else {
            throw PusherServerError(.invalidArgument, "channel_data needs a non-empty \"user_id\" (string or number)")
        }
    }
}
