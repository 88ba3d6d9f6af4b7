// SPDX-License-Identifier: MIT

import Foundation

/// What a client asked a ``PusherLoadServer`` for, read from one text frame. Only the few
/// messages the load server answers are told apart; parsing cost does not matter here.
enum LoadServerRequest: Equatable {
    case subscribe(channel: String)
    case ping
    case other

    init(parsing text: Data) {
        guard let message = try? JSONSerialization.jsonObject(with: text) as? [String: Any],
            let event = message["event"] as? String
        else {
            self = .other
            return
        }
        switch event {
        case "pusher:subscribe":
            // `data` is an object here; some clients send it as a string holding one.
            var data = message["data"] as? [String: Any]
            if let text = message["data"] as? String {
                data = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            }
            if let channel = data?["channel"] as? String {
                self = .subscribe(channel: channel)
            } else {
                self = .other
            }
        case "pusher:ping":
            self = .ping
        default:
            self = .other
        }
    }
}
