// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

extension FakePusherServer {
    /// One event of a trigger or batch trigger request, validated.
    struct APIEvent {
        /// Longest event name Pusher accepts.
        static let maximumNameLength = 200

        let name: String
        let channels: [String]
        let data: String
        let socketID: String?
        /// The attributes asked for with `info` (`subscription_count`, `user_count`).
        let info: [String]

        /// Reads a trigger body (`channels` or `channel`) or one event of a batch (`channel` only),
        /// checking, in order: the fields' types, the channel limit, the data limit (413), the
        /// channel names, the event name, `socket_id` and `info`.
        init(_ json: JSONValue, limits: APILimits, inBatch: Bool) throws(APIError) {
            guard case .object = json else { throw APIError(.badRequest, "An event must be a JSON object") }
            guard let name = json["name"]?.stringValue else {
                throw APIError(.badRequest, "Missing or invalid parameter: name")
            }
            var channels: [String] = []
            if !inBatch, let list = json["channels"] {
                guard case .array(let values) = list else {
                    throw APIError(.badRequest, "Invalid parameter: channels must be an array of strings")
                }
                for value in values {
                    guard let channel = value.stringValue else {
                        throw APIError(.badRequest, "Invalid parameter: channels must be an array of strings")
                    }
                    channels.append(channel)
                }
            } else if let channel = json["channel"]?.stringValue {
                channels = [channel]
            }
            guard !channels.isEmpty else {
                throw APIError(.badRequest, inBatch ? "Missing parameter: channel" : "Missing parameter: channels")
            }
            guard let data = json["data"]?.stringValue else {
                throw APIError(.badRequest, "Missing or invalid parameter: data must be a string")
            }
            if let limit = limits.channelsPerTrigger, channels.count > limit {
                throw APIError(.badRequest, "Too many channels: \(channels.count), the limit is \(limit)")
            }
            if let limit = limits.dataBytes, data.utf8.count > limit {
                throw APIError(
                    .payloadTooLarge, "Request too large: \(data.utf8.count) bytes of data, the limit is \(limit)")
            }
            for channel in channels where !Self.isValidChannel(channel) {
                throw APIError(.badRequest, "Invalid channel name: \(channel)")
            }
            if channels.count > 1, channels.contains(where: { ChannelName.kind(of: $0) == .privateEncrypted }) {
                throw APIError(.badRequest, "Cannot trigger to several channels when one is encrypted")
            }
            guard !name.isEmpty, name.utf8.count <= Self.maximumNameLength else {
                throw APIError(.badRequest, "Invalid event name: 1 to \(Self.maximumNameLength) characters")
            }
            var socketID: String?
            if let value = json["socket_id"] {
                guard let text = value.stringValue, Self.isValidSocketID(text) else {
                    throw APIError(.badRequest, "Invalid socket_id: \(value.jsonText)")
                }
                socketID = text
            }
            var info: [String] = []
            if let value = json["info"] {
                guard let text = value.stringValue else { throw APIError(.badRequest, "Invalid parameter: info") }
                info = try Self.attributes(text, allowed: ["subscription_count", "user_count"])
                if info.contains("user_count"),
                    let channel = channels.first(where: { ChannelName.kind(of: $0) != .presence })
                {
                    throw APIError(.badRequest, "Cannot retrieve the user count of a non-presence channel: \(channel)")
                }
            }
            self.name = name
            self.channels = channels
            self.data = data
            self.socketID = socketID
            self.info = info
        }

        /// A valid channel name, or a user's `#server-to-user-ID` channel.
        static func isValidChannel(_ channel: String) -> Bool {
            if channel.hasPrefix(FakePusherServer.userChannelPrefix) {
                return channel.utf8.count > FakePusherServer.userChannelPrefix.utf8.count
                    && channel.utf8.count <= 200
            }
            return (try? ChannelName(validating: channel)) != nil
        }

        /// `digits.digits`.
        static func isValidSocketID(_ text: String) -> Bool {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 2
                && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        }

        /// A comma-separated `info` value's attributes; an unknown one is refused.
        static func attributes(_ text: String, allowed: Set<String>) throws(APIError) -> [String] {
            let attributes = text.split(separator: ",").map(String.init)
            for attribute in attributes where !allowed.contains(attribute) {
                throw APIError(.badRequest, "Unknown info attribute: \(attribute)")
            }
            return attributes
        }
    }
}
