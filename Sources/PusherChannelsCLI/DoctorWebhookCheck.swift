// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

/// The `webhook` check: a correctly signed test webhook must get a 2xx; the same body with a wrong
/// signature must be refused (401 or 403); the same body re-serialised with other whitespace, under
/// the original signature, must be refused too.
struct DoctorWebhookCheck: Sendable {
    /// The channel the test webhook names.
    static let channel = "doctor-webhook-test"

    let settings: DoctorSettings
    let http: DoctorHTTP

    func run() async -> DoctorFinding {
        if let skip = DoctorSkip.finding(.webhook, settings: self.settings) { return skip }
        guard let url = self.settings.webhookURL, let secret = self.settings.secret else {
            return .skip(.webhook, "no --webhook-url or secret")
        }
        let route = DoctorRoute.describe(host: DoctorRoute.host(of: url), settings: self.settings)
        let target = "POST \(url)\(route)"
        let time = DoctorClock.now() * 1000
        // As Pusher sends it: compact, time_ms first.
        let body = #"{"time_ms":\#(time),"events":[{"name":"channel_occupied","channel":"\#(Self.channel)"}]}"#
        // The same JSON value with other whitespace: what `JSON.parse` and `JSON.stringify(…, null, 1)` give.
        let reserialised =
            "{\n \"time_ms\": \(time),\n \"events\": [\n  {\n   \"name\": \"channel_occupied\",\n   \"channel\": \"\(Self.channel)\"\n  }\n ]\n}"
        let signature = HMACSHA256.hex(key: secret, message: body)
        // A signature of the same body with another secret.
        let wrongSignature = HMACSHA256.hex(key: secret + "-not-the-secret", message: body)

        let signed: DoctorHTTPAnswer
        switch await self.post(url, body: body, signature: signature) {
        case .success(let answer): signed = answer
        case .failure(let failure): return .fail(.webhook, "\(target): \(failure)")
        }
        guard signed.isSuccess else {
            return .fail(
                .webhook,
                "\(target): a correctly signed test webhook (X-Pusher-Key \(self.settings.key)) got HTTP \(signed.status) \(signed.quotedBody()), not 2xx: "
                    + Self.refusalCause(signed.status))
        }
        let wrong: DoctorHTTPAnswer
        switch await self.post(url, body: body, signature: wrongSignature) {
        case .success(let answer): wrong = answer
        case .failure(let failure): return .fail(.webhook, "\(target) with a wrong signature: \(failure)")
        }
        if wrong.isSuccess {
            return .fail(
                .webhook,
                "\(target): a test webhook with a wrong X-Pusher-Signature got HTTP \(wrong.status): your endpoint accepts unsigned webhooks; anyone can post events to it. Verify X-Pusher-Signature, the HMAC-SHA256 hex of the raw body with the app secret, and answer 401 when it does not match"
            )
        }
        let changed: DoctorHTTPAnswer
        switch await self.post(url, body: reserialised, signature: signature) {
        case .success(let answer): changed = answer
        case .failure(let failure): return .fail(.webhook, "\(target) with a re-serialised body: \(failure)")
        }
        if changed.isSuccess {
            return .fail(
                .webhook,
                "\(target): the test webhook re-serialised with other whitespace, under the signature of the original body, got HTTP \(changed.status): your endpoint verifies parsed JSON, not the raw body (it re-serialises what it parsed and checks that). Compute the HMAC over the request's raw bytes, before any JSON parsing: a re-serialised body can differ from what Pusher signed, and a forged one can pass"
            )
        }
        let detail =
            "\(target): a signed test webhook got HTTP \(signed.status); a wrong signature got HTTP \(wrong.status); a re-serialised body under the original signature got HTTP \(changed.status)"
        let statuses: Set<Int> = [401, 403]
        if !statuses.contains(wrong.status) || !statuses.contains(changed.status) {
            return .warn(
                .webhook,
                detail
                    + "; refused, but 401 or 403 is the answer for a bad signature (Pusher's libraries and this package answer 401)"
            )
        }
        return .ok(.webhook, detail)
    }

    private func post(_ url: String, body: String, signature: String) async -> Result<
        DoctorHTTPAnswer, DoctorHTTP.Failure
    > {
        await self.http.send(
            .POST, url,
            headers: [
                ("Content-Type", "application/json"), ("X-Pusher-Key", self.settings.key),
                ("X-Pusher-Signature", signature),
            ],
            body: Array(body.utf8))
    }

    /// Why a correctly signed webhook is refused.
    private static func refusalCause(_ status: Int) -> String {
        switch status {
        case 401, 403:
            "the endpoint checks the signature with another secret or key (it must be this app's), or verifies a re-serialised body instead of the raw bytes"
        case 404, 405:
            "nothing answers a POST at this URL; check --webhook-url and the URL in the app's webhook settings"
        case 300..<400:
            "a redirect; Pusher does not follow it: give the final URL"
        case 500..<600:
            "the endpoint failed; its log says why"
        default:
            "Pusher counts anything but 2xx as a failed delivery"
        }
    }
}
