// SPDX-License-Identifier: MIT

import PusherChannels

/// Recomputes an endpoint's signature with the app secret and, when it does not match, finds which
/// string was signed among the usual mistakes.
enum DoctorSignature {
    /// The outcome of ``check(_:expected:form:mistakes:secret:key:)``.
    enum Outcome: Sendable, Equatable {
        case matches
        /// The signature is of `signed`, one of the usual mistakes.
        case signedOther(String)
        /// The signature is of no string tried: another secret.
        case unknown
    }

    /// Whether `signature` (hex) is HMAC-SHA256 of `expected` under `secret`, or else of one of
    /// `mistakes`.
    static func check(_ signature: String, expected: String, mistakes: [String], secret: String) -> Outcome {
        let signature = signature.lowercased()
        if Hex.constantTimeEquals(signature, HMACSHA256.hex(key: secret, message: expected)) { return .matches }
        for mistake in mistakes where mistake != expected {
            if Hex.constantTimeEquals(signature, HMACSHA256.hex(key: secret, message: mistake)) {
                return .signedOther(mistake)
            }
        }
        return .unknown
    }

    /// The problem an outcome other than ``Outcome/matches`` describes: what was signed and what
    /// should have been (`form` names the parts, such as `socket_id:channel_name`).
    static func problem(_ outcome: Outcome, expected: String, form: String, key: String) -> String? {
        switch outcome {
        case .matches:
            return nil
        case .signedOther(let signed):
            return "the signature is of \"\(signed)\", but it must be of \"\(expected)\" (\(form))"
        case .unknown:
            return
                "the signature is not HMAC-SHA256 of \"\(expected)\" (\(form)) with the app secret: the endpoint signs with a secret that is not key \(key)'s (or signs another string)"
        }
    }

    /// The usual mistakes in signing a channel: the parts swapped, the channel_data left out or
    /// added, the prefix dropped from the channel name, a trailing ':'.
    static func channelMistakes(socketID: String, channel: String, channelData: String?) -> [String] {
        var mistakes = [
            "\(socketID):\(channel)", "\(channel):\(socketID)", "\(socketID):\(channel):", "\(socketID)\(channel)",
        ]
        if let dash = channel.firstIndex(of: "-") {
            let bare = channel[channel.index(after: dash)...]
            mistakes.append("\(socketID):\(bare)")
            if channel.hasPrefix("private-encrypted-") {
                mistakes.append("\(socketID):\(channel.dropFirst("private-encrypted-".count))")
                mistakes.append("\(socketID):private-\(channel.dropFirst("private-encrypted-".count))")
            }
        }
        if let channelData {
            mistakes.append("\(channel):\(socketID):\(channelData)")
            mistakes.append("\(socketID):\(channel)\(channelData)")
        }
        return mistakes
    }

    /// The usual mistakes in signing a user: one ':' instead of two, `user` left out, the parts
    /// swapped.
    static func userMistakes(socketID: String, userData: String) -> [String] {
        [
            "\(socketID):user:\(userData)", "\(socketID)::\(userData)", "\(socketID):\(userData)",
            "\(userData)::user::\(socketID)", "\(socketID)::user",
        ]
    }
}
