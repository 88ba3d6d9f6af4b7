// SPDX-License-Identifier: MIT

/// The control messages this client sends. `data` is always a JSON object (some servers reject a
/// string here).
package enum OutboundMessage {
    package static let ping = #"{"event":"pusher:ping","data":{}}"#
    package static let pong = #"{"event":"pusher:pong","data":{}}"#

    package static func subscribe(channel: String, auth: String? = nil, channelData: String? = nil) -> String {
        var output = #"{"event":"pusher:subscribe","data":{"channel":"#
        JSONWriter.appendQuoted(channel, to: &output)
        if let auth {
            output += #","auth":"#
            JSONWriter.appendQuoted(auth, to: &output)
        }
        if let channelData {
            output += #","channel_data":"#
            JSONWriter.appendQuoted(channelData, to: &output)
        }
        output += "}}"
        return output
    }

    /// `pusher:signin` with the exact `user_data` string that was signed.
    package static func signIn(auth: String, userData: String) -> String {
        var output = #"{"event":"pusher:signin","data":{"auth":"#
        JSONWriter.appendQuoted(auth, to: &output)
        output += #","user_data":"#
        JSONWriter.appendQuoted(userData, to: &output)
        return output + "}}"
    }

    package static func unsubscribe(channel: String) -> String {
        var output = #"{"event":"pusher:unsubscribe","data":{"channel":"#
        JSONWriter.appendQuoted(channel, to: &output)
        output += "}}"
        return output
    }
}
