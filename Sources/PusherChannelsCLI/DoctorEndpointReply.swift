// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels

/// An auth or user-auth endpoint's answer to the form POST pusher-js sends, read as pusher-js
/// reads it: a 2xx status and a JSON object; or why it is not one, with the likely cause.
enum DoctorEndpointReply {
    /// A JSON object (with a warning when its content type is not JSON), or the failure's detail.
    case object([String: JSONValue], warnings: [String])
    case failed(String)

    /// Reads `answer` of the endpoint given with `option` (`--auth-endpoint`); `channelOption`
    /// names the option of the channel asked for, and `check` the check a refusal may be skipped
    /// with (an app without presence or encrypted channels).
    static func read(_ answer: DoctorHTTPAnswer, option: String, channelOption: String?, check: DoctorCheck)
        -> DoctorEndpointReply
    {
        let seen = "HTTP \(answer.status)"
        // An HTML page is told by its title, not quoted.
        let body =
            answer.isHTML ? "with an HTML page" + (answer.htmlTitle.map { " \"\($0)\"" } ?? "") : answer.quotedBody()
        let session =
            "pass the session or token your endpoint expects with --auth-header (for example 'Cookie: session=…' or 'Authorization: Bearer …')"
        switch answer.status {
        case 200..<300:
            break
        case 300..<400:
            let location = answer.headers.first(name: "Location").map { " to \($0)" } ?? ""
            return .failed(
                "\(seen), a redirect\(location): pusher-js does not follow it; the request was sent elsewhere (a login page?) instead of being answered: \(session), or exempt the endpoint from the redirect"
            )
        case 401, 403:
            let channel = channelOption.map { ", or name a channel this user may use with \($0)" } ?? ""
            let skip =
                check == .authPresence || check == .authEncrypted
                ? " (if the app has no such channels: --skip \(check.rawValue))" : ""
            return .failed(
                "\(seen) \(body): the endpoint refused the request: \(session)\(channel)\(skip)")
        case 404, 405:
            return .failed(
                "\(seen) \(body): nothing answers a POST at this URL; check \(option) (pusher-js posts to /pusher/auth and /pusher/user-auth unless told otherwise)"
            )
        case 419:
            return .failed(
                "\(seen) \(body): a CSRF check (Laravel's 419) refused the POST: send the token with --auth-header 'X-CSRF-TOKEN: …', or exempt the route from CSRF"
            )
        case 500..<600:
            return .failed("\(seen) \(body): the endpoint failed; its log says why")
        default:
            return .failed("\(seen) \(body): pusher-js needs a 2xx status with JSON")
        }
        let type = answer.mediaType ?? "no Content-Type"
        if answer.isHTML {
            let title = answer.htmlTitle.map { " \"\($0)\"" } ?? ""
            return .failed(
                "\(seen) with an HTML page\(title) (\(type)) instead of JSON: the request was not authenticated and got a login page (or an error page): \(session), or exempt the endpoint from the login"
            )
        }
        guard let json = try? JSONValue(parsing: answer.body) else {
            return .failed(
                "\(seen) (\(type)) is not JSON: \(answer.quotedBody()); the endpoint must answer a JSON object")
        }
        guard case .object(let object) = json else {
            return .failed("\(seen) (\(type)) is JSON but not an object: \(answer.quotedBody())")
        }
        var warnings: [String] = []
        if let mediaType = answer.mediaType, mediaType != "application/json" && !mediaType.hasSuffix("+json") {
            warnings.append(
                "the Content-Type is \(mediaType), not application/json (pusher-js reads it anyway; other clients may not)"
            )
        } else if answer.mediaType == nil {
            warnings.append("the answer has no Content-Type (application/json expected)")
        }
        return .object(object, warnings: warnings)
    }

    /// The problems of an `auth` value: it must be `KEY:64 hex digits` with this app's key.
    static func authProblems(_ value: JSONValue?, key: String) -> (auth: String?, problems: [String]) {
        guard let value else {
            return (nil, ["the answer has no \"auth\" (the signature, \"\(key):…\")"])
        }
        guard case .string(let auth) = value, !auth.isEmpty else {
            return (nil, ["\"auth\" is not a non-empty string"])
        }
        guard let colon = auth.lastIndex(of: ":") else {
            return (auth, ["\"auth\" is not \"KEY:SIGNATURE\" (no ':')"])
        }
        var problems: [String] = []
        let signedKey = auth[..<colon]
        let signature = auth[auth.index(after: colon)...]
        if signedKey != key {
            problems.append(
                "\"auth\" is signed for the key \(signedKey), not this app's key \(key): the endpoint uses another app's credentials"
            )
        }
        if signature.count != 64 || !signature.allSatisfy(\.isHexDigit) {
            problems.append("the signature in \"auth\" is not 64 hex digits (HMAC-SHA256)")
        }
        return (auth, problems)
    }

    /// The hex signature of an `auth` value (what follows its last `:`).
    static func signature(of auth: String) -> String {
        auth.lastIndex(of: ":").map { String(auth[auth.index(after: $0)...]) } ?? auth
    }
}
