// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

/// The `user-auth` check: the form POST of `socket_id` pusher-js sends to the user-auth endpoint,
/// its answer read and its signature recomputed, then a sign-in with that answer, for the server's
/// own verdict.
struct DoctorUserAuthCheck: Sendable {
    let settings: DoctorSettings
    let http: DoctorHTTP
    let table: DoctorAnswerTable

    func run(client: PusherClient, socketID: String?) async -> DoctorFinding {
        if let skip = DoctorSkip.finding(.userAuth, settings: self.settings) { return skip }
        guard let endpoint = self.settings.userAuthEndpoint else { return .skip(.userAuth, "no --user-auth-endpoint") }
        let socket = socketID ?? DoctorAuthCheck.placeholderSocketID
        let request =
            "POST \(endpoint) (socket_id=\(socket))"
            + DoctorRoute.describe(host: DoctorRoute.host(of: endpoint), settings: self.settings)
        let headers =
            [("Content-Type", "application/x-www-form-urlencoded")]
            + self.settings.authHeaders.sorted { $0.key < $1.key }
        let answer: DoctorHTTPAnswer
        let form = Array("socket_id=\(PercentEncoding.encode(socket))".utf8)
        switch await self.http.send(.POST, endpoint, headers: headers, body: form) {
        case .success(let success): answer = success
        case .failure(let failure): return .fail(.userAuth, "\(request): \(failure)")
        }
        let object: [String: JSONValue]
        let warnings: [String]
        switch DoctorEndpointReply.read(answer, option: "--user-auth-endpoint", channelOption: nil, check: .userAuth) {
        case .failed(let detail): return .fail(.userAuth, "\(request): \(detail)")
        case .object(let read, let readWarnings): (object, warnings) = (read, readWarnings)
        }
        var (auth, problems) = DoctorEndpointReply.authProblems(object["auth"], key: self.settings.key)
        var seen = ["HTTP \(answer.status) \(answer.mediaType ?? "")"]
        let userData = Self.userData(object, problems: &problems, seen: &seen)
        var signatureMismatch: String?
        if let auth, let userData, problems.isEmpty {
            if let secret = self.settings.secret {
                let expected = "\(socket)::user::\(userData)"
                let outcome = DoctorSignature.check(
                    DoctorEndpointReply.signature(of: auth), expected: expected,
                    mistakes: DoctorSignature.userMistakes(socketID: socket, userData: userData), secret: secret)
                signatureMismatch = DoctorSignature.problem(
                    outcome, expected: expected, form: "socket_id::user::user_data", key: self.settings.key)
                if signatureMismatch == nil { seen.append("signature verified with the secret") }
            } else {
                seen.append("signature not recomputed (no secret given)")
            }
        }
        var verdict: DoctorVerdict?
        if let auth, let userData, socketID != nil {
            self.table.setUser(UserAuthentication(auth: auth, userData: userData))
            verdict = await DoctorVerdict.signingIn(client)
        }
        let verdictText = verdict.map { "; \($0.description(of: "the sign-in"))" } ?? ""
        let noConnection = socketID == nil ? "; not signed in: no connection (see connect)" : ""
        if !problems.isEmpty {
            return .fail(.userAuth, "\(request): " + problems.joined(separator: "; ") + verdictText + noConnection)
        }
        if let signatureMismatch {
            if case .accepted? = verdict {
                return .warn(
                    .userAuth,
                    "\(request): \(signatureMismatch)\(verdictText): the secret given to doctor is not the server's secret for key \(self.settings.key) (see api)"
                )
            }
            return .fail(.userAuth, "\(request): \(signatureMismatch)\(verdictText)\(noConnection)")
        }
        let detail = "\(request): " + seen.joined(separator: ", ") + verdictText + noConnection
        if let verdict, verdict != .accepted { return .fail(.userAuth, detail) }
        if !warnings.isEmpty { return .warn(.userAuth, detail + "; but " + warnings.joined(separator: "; ")) }
        return .ok(.userAuth, detail)
    }

    /// `user_data`: a JSON string of an object with a non-empty string `id`.
    private static func userData(_ object: [String: JSONValue], problems: inout [String], seen: inout [String])
        -> String?
    {
        guard let value = object["user_data"] else {
            problems.append(
                "the answer has no \"user_data\": sign-in needs user_data, a JSON string such as \"{\\\"id\\\":\\\"42\\\"}\", signed as socket_id::user::user_data"
            )
            return nil
        }
        guard case .string(let text) = value else {
            problems.append(
                "\"user_data\" is not a string: send the JSON text as a string, exactly the text that was signed")
            return nil
        }
        guard let data = try? JSONValue(parsing: text), case .object(let fields) = data else {
            problems.append("\"user_data\" is not the text of a JSON object")
            return text
        }
        guard case .string(let id)? = fields["id"], !id.isEmpty else {
            problems.append("\"user_data\" has no \"id\" (a non-empty string)")
            return text
        }
        seen.append("user_data id \(id)")
        return text
    }
}
