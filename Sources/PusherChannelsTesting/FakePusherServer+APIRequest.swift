// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

extension FakePusherServer {
    /// One HTTP API request as received: method, path, query (percent-decoded) and the exact body bytes.
    struct APIRequest {
        /// How far `auth_timestamp` may be from the server's clock, in seconds (Pusher's window).
        static let timestampWindow = 600

        let method: String
        /// The path as received, without the query (what the client signed).
        let path: String
        /// The query parameters in order, names and values percent-decoded (`+` is a space).
        let query: [(name: String, value: String)]
        let body: [UInt8]

        init(method: HTTPMethod, uri: String, body: [UInt8]) {
            self.method = method.rawValue
            let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            self.path = String(parts[0])
            var query: [(name: String, value: String)] = []
            if parts.count > 1 {
                for pair in parts[1].split(separator: "&") {
                    let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    query.append((Self.decoded(field[0]), field.count > 1 ? Self.decoded(field[1]) : ""))
                }
            }
            self.query = query
            self.body = body
        }

        /// The first value of a query parameter.
        func value(_ name: String) -> String? {
            self.query.first { $0.name == name }?.value
        }

        /// What the signature covers: `METHOD\nPATH\n` and every parameter but `auth_signature`,
        /// names lowercased, sorted by name, joined `name=value` with `&`, values not encoded.
        var stringToSign: String {
            let pairs = self.query
                .map { (name: $0.name.lowercased(), value: $0.value) }
                .filter { $0.name != "auth_signature" }
                .sorted { $0.name < $1.name }
                .map { "\($0.name)=\($0.value)" }
            return "\(self.method)\n\(self.path)\n" + pairs.joined(separator: "&")
        }

        /// Checks the request as Pusher does, in order: the key, the timestamp window, the auth
        /// version, `body_md5` against the exact bytes received, then the signature.
        ///
        /// - Parameters:
        ///   - key: The app key.
        ///   - secret: The app secret; without one every request is refused.
        ///   - now: The server's clock, in seconds since the epoch.
        func authenticate(key: String, secret: String?, now: Int) throws(APIError) {
            guard let secret else { throw APIError(.unauthorized, "This fake server has no app secret") }
            guard let authKey = self.value("auth_key") else { throw APIError(.unauthorized, "Missing auth_key") }
            guard authKey == key else { throw APIError(.unauthorized, "Unknown auth_key") }
            guard let timestampText = self.value("auth_timestamp"), let timestamp = Int(timestampText) else {
                throw APIError(.unauthorized, "Missing or invalid auth_timestamp")
            }
            // Any `Int` may come: the difference is taken without overflow (Int.min once trapped).
            let (difference, overflow) = timestamp.subtractingReportingOverflow(now)
            guard !overflow, difference.magnitude <= UInt(Self.timestampWindow) else {
                throw APIError(
                    .unauthorized,
                    "Timestamp expired: Given timestamp (\(timestamp)) not within \(Self.timestampWindow)s of server "
                        + "time (\(now))")
            }
            guard self.value("auth_version") == "1.0" else {
                throw APIError(.unauthorized, "Unsupported auth_version: 1.0 is required")
            }
            if let bodyMD5 = self.value("body_md5") {
                guard bodyMD5 == MD5Digest.hex(self.body) else {
                    throw APIError(.unauthorized, "The body_md5 parameter does not match the MD5 of the body")
                }
            } else if !self.body.isEmpty {
                throw APIError(.unauthorized, "Missing body_md5 for a request with a body")
            }
            let signature = self.value("auth_signature") ?? ""
            let expected = HMACSHA256.hex(key: secret, message: self.stringToSign)
            guard Hex.constantTimeEquals(signature, expected) else {
                let signed = self.stringToSign.replacingNewlines()
                throw APIError(
                    .unauthorized,
                    "Invalid signature: Expected HMAC SHA256 hex digest of \(signed), but got \(signature)")
            }
        }

        /// `text` with `%XX` escapes decoded and `+` read as a space; text with an invalid escape
        /// is kept as it is.
        static func decoded(_ text: Substring) -> String {
            PercentEncoding.decode(text, plusAsSpace: true) ?? String(text)
        }
    }

    /// One event of a trigger or batch trigger request, validated.
    struct APIEvent {
        /// Longest event name Pusher accepts, in bytes.
        static let maximumNameLength = PusherNameRules.maximumEventNameBytes

        let name: String
        let channels: [String]
        let data: String
        let socketID: String?
        /// The attributes asked for with `info` (`subscription_count`, `user_count`).
        let info: [String]

        /// Reads a trigger body (`channels` or `channel`) or one event of a batch (`channel` only),
        /// checking, in order: the fields' types, the channel limit, the data limit (413), the
        /// channel names, the event name, `socket_id` and `info`.
        init(_ json: JSONValue, limits: TriggerLimits, inBatch: Bool) throws(APIError) {
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
            guard PusherNameRules.isValidEventName(name) else {
                throw APIError(.badRequest, "Invalid event name: 1 to \(Self.maximumNameLength) bytes")
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

        /// A valid channel name, or a user's `#server-to-user-ID` channel (``PusherNameRules``).
        static func isValidChannel(_ channel: String) -> Bool {
            PusherNameRules.isValidChannelName(channel, allowsServerToUser: true)
        }

        /// `digits.digits`, at most 64 bytes (``PusherNameRules``).
        static func isValidSocketID(_ text: String) -> Bool {
            PusherNameRules.isValidSocketID(text)
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

extension String {
    /// The text with its newlines written as `\n`, for one-line messages.
    fileprivate func replacingNewlines() -> String {
        self.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }
}
