// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels
import PusherChannelsServer

/// The `api` check: a signed `GET /apps/ID/channels`, and what its answer says about the key, the
/// secret, the app id and the clocks.
enum DoctorAPICheck {
    /// Clock differences beyond this are worth a warning (Pusher refuses beyond 600 s).
    static let clockWarning = 300

    static func run(http: DoctorHTTP, settings: DoctorSettings) async -> DoctorFinding {
        if let skip = DoctorSkip.finding(.api, settings: settings) { return skip }
        guard let secret = settings.secret else { return .skip(.api, "no secret") }
        let path = "/apps/\(settings.appID)/channels"
        let signed: SignedRequest
        do {
            signed = try RequestSigner(key: settings.key, secret: secret).sign(
                PusherAPIRequest(method: .get, path: path), timestamp: DoctorClock.now())
        } catch {
            return .fail(.api, error.message)
        }
        let route = DoctorRoute.describe(host: settings.apiHost, settings: settings)
        let request = "GET \(settings.apiOrigin)\(path)\(route)"
        let answer: DoctorHTTPAnswer
        switch await http.send(.GET, settings.apiOrigin + signed.target) {
        case .success(let success): answer = success
        case .failure(let failure): return .fail(.api, "\(request): \(failure)")
        }
        return Self.verdict(answer, request: request, settings: settings, sentAt: DoctorClock.now())
    }

    /// What `answer` says.
    static func verdict(_ answer: DoctorHTTPAnswer, request: String, settings: DoctorSettings, sentAt now: Int)
        -> DoctorFinding
    {
        let seen = "\(request): HTTP \(answer.status) \(answer.quotedBody())"
        let lowered = answer.body.lowercased()
        let dateSkew = answer.headers.first(name: "Date").flatMap(DoctorClock.seconds(ofHTTPDate:)).map { $0 - now }
        switch answer.status {
        case 200..<300:
            guard let json = try? JSONValue(parsing: answer.body), case .object(let channels)? = json["channels"] else {
                return .warn(
                    .api,
                    "\(seen): not the HTTP API's {\"channels\":…}; is \(settings.apiOrigin) the HTTP API of a Pusher Channels server?"
                )
            }
            var detail =
                "\(request): HTTP \(answer.status), \(channels.count) occupied channel\(channels.count == 1 ? "" : "s")"
            if let dateSkew, abs(dateSkew) > Self.clockWarning {
                detail +=
                    "; but the server's clock is \(DoctorClock.describe(dateSkew)) (its Date header): signed requests are refused beyond 600 s; set the clocks right (NTP)"
                return .warn(.api, detail)
            }
            return .ok(.api, detail + "; the key, secret and app id are accepted")
        case 401 where lowered.contains("timestamp") && (lowered.contains("expired") || lowered.contains("not within")):
            let fromMessage = DoctorClock.serverTime(inMessage: answer.body).map { ($0 - now, "its message") }
            let difference = fromMessage ?? dateSkew.map { ($0, "its Date header") }
            let clocks =
                difference.map { "the server's clock is \(DoctorClock.describe($0.0)) (from \($0.1))" }
                ?? "the clocks of this machine and the server differ"
            return .fail(
                .api,
                "\(seen): \(clocks). Requests are signed with auth_timestamp, which must be within 600 s of the server's time: set the clock right on whichever is wrong (NTP, e.g. timedatectl set-ntp true)"
            )
        case 401 where lowered.contains("signature"):
            return .fail(
                .api,
                "\(seen): the secret does not belong to the key \(settings.key) (the server signs with another one); use the secret shown next to this key on the app's App Keys page"
            )
        case 401 where lowered.contains("key"):
            return .fail(
                .api,
                "\(seen): the key \(settings.key) is unknown to this server; check --key, --app-id and the cluster")
        case 401:
            return .fail(.api, "\(seen): the key or secret is refused; check --key and the secret")
        case 403:
            return .fail(
                .api,
                "\(seen): app \(settings.appID) refuses the request: the app is disabled or over its quota, or the key \(settings.key) is not one of app \(settings.appID)'s; check --app-id"
            )
        case 404:
            return .fail(
                .api,
                "\(seen): there is no app \(settings.appID) at \(settings.apiOrigin); check --app-id and the cluster")
        case 300..<400:
            let location = answer.headers.first(name: "Location").map { " to \($0)" } ?? ""
            return .fail(
                .api,
                "\(seen): a redirect\(location), not an answer; is \(settings.apiOrigin) the HTTP API (and TLS right)?")
        default:
            return .fail(.api, "\(seen): the HTTP API refused the request")
        }
    }
}
