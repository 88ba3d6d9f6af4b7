// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

/// The `auth-private`, `auth-presence` and `auth-encrypted` checks: the form POST pusher-js sends
/// to the auth endpoint, its answer read and its signature recomputed, then a subscription with
/// that answer, for the server's own verdict.
struct DoctorAuthCheck: Sendable {
    /// The socket id sent when there is no connection (see the `connect` check).
    static let placeholderSocketID = "123456.7890123"

    let check: DoctorCheck
    let channel: String
    let settings: DoctorSettings
    let http: DoctorHTTP
    let table: DoctorAnswerTable

    init(_ check: DoctorCheck, settings: DoctorSettings, http: DoctorHTTP, table: DoctorAnswerTable) {
        self.check = check
        self.channel =
            switch check {
            case .authPresence: settings.presenceChannel
            case .authEncrypted: settings.encryptedChannel
            default: settings.privateChannel
            }
        self.settings = settings
        self.http = http
        self.table = table
    }

    private var channelOption: String {
        switch self.check {
        case .authPresence: "--presence-channel"
        case .authEncrypted: "--encrypted-channel"
        default: "--private-channel"
        }
    }

    /// Runs the check on the connection `socketID` of `client` (nil: no connection; the endpoint is
    /// asked for a made-up socket id and nothing is subscribed).
    func run(client: PusherClient, socketID: String?) async -> DoctorFinding {
        if let skip = DoctorSkip.finding(self.check, settings: self.settings) { return skip }
        guard let endpoint = self.settings.authEndpoint else { return .skip(self.check, "no --auth-endpoint") }
        let socket = socketID ?? Self.placeholderSocketID
        let form = "socket_id=\(PercentEncoding.encode(socket))&channel_name=\(PercentEncoding.encode(self.channel))"
        let request =
            "POST \(endpoint) (socket_id=\(socket)&channel_name=\(self.channel))"
            + DoctorRoute.describe(host: DoctorRoute.host(of: endpoint), settings: self.settings)
        let headers =
            [("Content-Type", "application/x-www-form-urlencoded")]
            + self.settings.authHeaders.sorted { $0.key < $1.key }
        let answer: DoctorHTTPAnswer
        switch await self.http.send(.POST, endpoint, headers: headers, body: Array(form.utf8)) {
        case .success(let success): answer = success
        case .failure(let failure): return .fail(self.check, "\(request): \(failure)")
        }
        let object: [String: JSONValue]
        var warnings: [String]
        switch DoctorEndpointReply.read(
            answer, option: "--auth-endpoint", channelOption: self.channelOption, check: self.check)
        {
        case .failed(let detail): return .fail(self.check, "\(request): \(detail)")
        case .object(let read, let readWarnings): (object, warnings) = (read, readWarnings)
        }
        var (auth, problems) = DoctorEndpointReply.authProblems(object["auth"], key: self.settings.key)
        var seen = ["HTTP \(answer.status) \(answer.mediaType ?? "")"]
        let channelData = self.channelData(object, problems: &problems, seen: &seen)
        let sharedSecret = self.sharedSecret(object, problems: &problems, seen: &seen)
        var signatureMismatch: String?
        if let auth, problems.isEmpty {
            if let secret = self.settings.secret {
                let expected = "\(socket):\(self.channel)" + (channelData.map { ":\($0)" } ?? "")
                let outcome = DoctorSignature.check(
                    DoctorEndpointReply.signature(of: auth), expected: expected,
                    mistakes: DoctorSignature.channelMistakes(
                        socketID: socket, channel: self.channel, channelData: channelData), secret: secret)
                signatureMismatch = DoctorSignature.problem(
                    outcome, expected: expected,
                    form: channelData == nil ? "socket_id:channel_name" : "socket_id:channel_name:channel_data",
                    key: self.settings.key)
                if signatureMismatch == nil { seen.append("signature verified with the secret") }
            } else {
                seen.append("signature not recomputed (no secret given)")
            }
        }
        // The server's verdict on the answer as it is, whatever was found wrong with it.
        var verdict: DoctorVerdict?
        if let auth, socketID != nil {
            self.table.set(
                ChannelAuthorization(auth: auth, channelData: channelData, sharedSecret: sharedSecret),
                for: self.channel)
            verdict = await DoctorVerdict.subscribing(client, to: self.channel)
        }
        return self.finding(
            request: request, seen: seen, problems: problems, signatureMismatch: signatureMismatch,
            warnings: warnings, verdict: verdict, hasConnection: socketID != nil)
    }

    /// The presence channel's `channel_data`: a JSON string of an object with a `user_id`.
    private func channelData(_ object: [String: JSONValue], problems: inout [String], seen: inout [String]) -> String? {
        guard self.check == .authPresence else { return object["channel_data"]?.stringValue }
        guard let value = object["channel_data"] else {
            problems.append(
                "the answer has no \"channel_data\": a presence channel needs channel_data, a JSON string such as \"{\\\"user_id\\\":\\\"42\\\"}\", signed as socket_id:channel_name:channel_data (the server libraries take it as the presence data of their authorize call)"
            )
            return nil
        }
        guard case .string(let text) = value else {
            problems.append(
                "\"channel_data\" is JSON \(Self.kind(of: value)), not a string: send the JSON text as a string, exactly the text that was signed"
            )
            return nil
        }
        guard let data = try? JSONValue(parsing: text), case .object(let fields) = data else {
            problems.append("\"channel_data\" is not the text of a JSON object")
            return text
        }
        guard let userID = fields["user_id"]?.idValue, !userID.isEmpty else {
            problems.append(
                "\"channel_data\" has no \"user_id\" (a non-empty string): presence members are told apart by it")
            return text
        }
        seen.append("channel_data user_id \(userID)")
        return text
    }

    /// The encrypted channel's `shared_secret`: base64 of 32 bytes.
    private func sharedSecret(_ object: [String: JSONValue], problems: inout [String], seen: inout [String]) -> String?
    {
        guard self.check == .authEncrypted else { return nil }
        guard let value = object["shared_secret"] else {
            problems.append(
                "the answer has no \"shared_secret\": a private-encrypted channel needs the channel's key (base64 of 32 bytes); give your server library the app's encryption master key (encryptionMasterKeyBase64) and it adds it"
            )
            return nil
        }
        guard case .string(let text) = value, EncryptionMasterKey.bytes(ofMasterKey: text) != nil else {
            problems.append("\"shared_secret\" is not base64 of 32 bytes")
            return nil
        }
        seen.append("shared_secret of 32 bytes")
        return text
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .string: "a string"
        }
    }

    /// The finding: failed when the answer has a problem (a wrong signature only when the server
    /// refused too; when it accepted, the secret given to `doctor` is the wrong one).
    private func finding(
        request: String, seen: [String], problems: [String], signatureMismatch: String?, warnings: [String],
        verdict: DoctorVerdict?, hasConnection: Bool
    ) -> DoctorFinding {
        let verdictText = verdict.map { "; \($0.description(of: "the subscription to \(self.channel)"))" } ?? ""
        let noConnection = hasConnection ? "" : "; not subscribed: no connection (see connect)"
        if !problems.isEmpty {
            return .fail(self.check, "\(request): " + problems.joined(separator: "; ") + verdictText + noConnection)
        }
        if let signatureMismatch {
            if case .accepted? = verdict {
                return .warn(
                    self.check,
                    "\(request): \(signatureMismatch)\(verdictText): the secret given to doctor is not the server's secret for key \(self.settings.key) (see api)"
                )
            }
            return .fail(self.check, "\(request): \(signatureMismatch)\(verdictText)\(noConnection)")
        }
        if let verdict, verdict != .accepted {
            return .fail(self.check, "\(request): " + seen.joined(separator: ", ") + verdictText)
        }
        let detail = "\(request): " + seen.joined(separator: ", ") + verdictText + noConnection
        if !warnings.isEmpty { return .warn(self.check, detail + "; but " + warnings.joined(separator: "; ")) }
        return .ok(self.check, detail)
    }
}
