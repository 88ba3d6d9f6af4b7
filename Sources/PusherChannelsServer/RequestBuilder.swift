// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

/// Builds the HTTP API's requests from a call's arguments: every check and limit first, then the
/// body, serialized once into the bytes that are hashed and sent. Pure: the nonces of encrypted
/// events come from the caller.
package struct RequestBuilder: Sendable {
    package let appID: String
    package let limits: PusherServerConfiguration.Limits
    let masterKey: PusherServerConfiguration.MasterKey?

    package init(configuration: PusherServerConfiguration) {
        self.appID = configuration.appID
        self.limits = configuration.limits
        self.masterKey = configuration.encryptionMasterKey
    }

    /// `POST /apps/ID/events` with `{"name","channels","data","socket_id"?,"info"?}`; the data of a
    /// private-encrypted channel (then the only channel) is sealed with a nonce from `nonce`.
    package func trigger(
        channels: [String],
        event: String,
        data: String,
        socketID: String?,
        info: [ChannelAttribute],
        nonce: () -> [UInt8]
    ) throws(PusherServerError) -> PusherAPIRequest {
        guard !channels.isEmpty else { throw PusherServerError(.invalidArgument, "a trigger needs a channel") }
        if let maximum = self.limits.channelsPerTrigger, channels.count > maximum {
            throw PusherServerError(
                .limitExceeded, "a trigger to \(channels.count) channels is more than the limit of \(maximum)")
        }
        for channel in channels { try RequestRules.checkChannel(channel, limits: self.limits) }
        if channels.count > 1, let encrypted = channels.first(where: RequestRules.isEncrypted) {
            throw PusherServerError(
                .invalidArgument, "the encrypted channel \(encrypted) must be the only channel of its trigger")
        }
        try RequestRules.checkEvent(event, limits: self.limits)
        if let socketID { try RequestRules.checkSocketID(socketID) }
        let sent = try self.dataAsSent(data, channel: channels[0], nonce: nonce)
        try RequestRules.checkData(sent, limits: self.limits)

        var body = #"{"name":"#
        JSONWriter.appendQuoted(event, to: &body)
        body += #","channels":["#
        for (index, channel) in channels.enumerated() {
            if index > 0 { body += "," }
            JSONWriter.appendQuoted(channel, to: &body)
        }
        body += "]"
        Self.appendEventFields(data: sent, socketID: socketID, info: info, to: &body)
        body += "}"
        return PusherAPIRequest(method: .post, path: "/apps/\(self.appID)/events", body: Array(body.utf8))
    }

    /// `POST /apps/ID/batch_events` with `{"batch":[{"channel","name","data","socket_id"?,"info"?},…]}`
    /// in the given order; each encrypted event sealed with its own nonce.
    package func batch(_ events: [BatchEvent], nonce: () -> [UInt8]) throws(PusherServerError) -> PusherAPIRequest {
        guard !events.isEmpty else { throw PusherServerError(.invalidArgument, "a batch needs an event") }
        if let maximum = self.limits.eventsPerBatch, events.count > maximum {
            throw PusherServerError(
                .limitExceeded, "a batch of \(events.count) events is more than the limit of \(maximum)")
        }
        var body = #"{"batch":["#
        for (index, event) in events.enumerated() {
            let sent: String
            do {
                try RequestRules.checkChannel(event.channel, limits: self.limits)
                try RequestRules.checkEvent(event.event, limits: self.limits)
                if let socketID = event.socketID { try RequestRules.checkSocketID(socketID) }
                sent = try self.dataAsSent(event.data, channel: event.channel, nonce: nonce)
                try RequestRules.checkData(sent, limits: self.limits)
            } catch {
                throw PusherServerError(error.code, "batch event \(index): \(error.message)")
            }
            if index > 0 { body += "," }
            body += #"{"channel":"#
            JSONWriter.appendQuoted(event.channel, to: &body)
            body += #","name":"#
            JSONWriter.appendQuoted(event.event, to: &body)
            Self.appendEventFields(data: sent, socketID: event.socketID, info: event.info, to: &body)
            body += "}"
        }
        body += "]}"
        return PusherAPIRequest(method: .post, path: "/apps/\(self.appID)/batch_events", body: Array(body.utf8))
    }

    /// `POST /apps/ID/users/USER_ID/terminate_connections` with the body `{}`.
    package func terminateConnections(userID: String) throws(PusherServerError) -> PusherAPIRequest {
        try RequestRules.checkUserID(userID)
        return PusherAPIRequest(
            method: .post, path: "/apps/\(self.appID)/users/\(userID)/terminate_connections", body: Array("{}".utf8))
    }

    /// `GET /apps/ID/channels` with `filter_by_prefix` and `info`.
    package func channels(prefix: String?, info: [ChannelAttribute]) throws(PusherServerError) -> PusherAPIRequest {
        var query = [PusherAPIRequest.Parameter]()
        if let prefix {
            guard !prefix.hasPrefix("#"), prefix.utf8.allSatisfy(RequestRules.isChannelNameByte) else {
                throw PusherServerError(
                    .invalidArgument, "the prefix \(prefix) has a character other than A-Z a-z 0-9 _ - = @ , . ;")
            }
            if !prefix.isEmpty { query.append(.init("filter_by_prefix", prefix)) }
        }
        if info.contains(.userCount), !(prefix ?? "").hasPrefix("presence-") {
            throw PusherServerError(
                .invalidArgument, "user_count can only be asked for with a prefix starting with presence-")
        }
        if let value = ChannelAttribute.infoValue(info) { query.append(.init("info", value)) }
        return PusherAPIRequest(method: .get, path: "/apps/\(self.appID)/channels", query: query)
    }

    /// `GET /apps/ID/channels/NAME` with `info`.
    package func channel(_ name: String, info: [ChannelAttribute]) throws(PusherServerError) -> PusherAPIRequest {
        try RequestRules.checkChannel(name, limits: self.limits, allowsServerToUser: false)
        if info.contains(.userCount), !name.hasPrefix("presence-") {
            throw PusherServerError(.invalidArgument, "user_count can only be asked for on presence channels")
        }
        var query = [PusherAPIRequest.Parameter]()
        if let value = ChannelAttribute.infoValue(info) { query.append(.init("info", value)) }
        return PusherAPIRequest(method: .get, path: "/apps/\(self.appID)/channels/\(name)", query: query)
    }

    /// `GET /apps/ID/channels/NAME/users` (presence channels only).
    package func users(inPresenceChannel name: String) throws(PusherServerError) -> PusherAPIRequest {
        try RequestRules.checkChannel(name, limits: self.limits, allowsServerToUser: false)
        guard name.hasPrefix("presence-") else {
            throw PusherServerError(.invalidArgument, "users can only be listed on presence channels, not \(name)")
        }
        return PusherAPIRequest(method: .get, path: "/apps/\(self.appID)/channels/\(name)/users")
    }

    /// The data as sent on `channel`: sealed on a private-encrypted channel, unchanged otherwise.
    private func dataAsSent(_ data: String, channel: String, nonce: () -> [UInt8]) throws(PusherServerError) -> String {
        guard RequestRules.isEncrypted(channel) else { return data }
        guard let masterKey = self.masterKey else {
            throw PusherServerError(
                .invalidConfiguration, "the encrypted channel \(channel) needs an encryption master key")
        }
        guard SecretBox.isAvailable,
            let sealed = EncryptedPayload.seal(data, key: masterKey.channelKey(forChannel: channel), nonce: nonce())
        else {
            throw PusherServerError(
                .invalidConfiguration, "this build cannot encrypt (libsodium is not available)")
        }
        return sealed
    }

    /// Appends `,"data":…` and the optional `socket_id` and `info`.
    private static func appendEventFields(
        data: String, socketID: String?, info: [ChannelAttribute], to body: inout String
    ) {
        body += #","data":"#
        JSONWriter.appendQuoted(data, to: &body)
        if let socketID {
            body += #","socket_id":"#
            JSONWriter.appendQuoted(socketID, to: &body)
        }
        if let value = ChannelAttribute.infoValue(info) {
            body += #","info":"#
            JSONWriter.appendQuoted(value, to: &body)
        }
    }
}
