// SPDX-License-Identifier: MIT

import PusherChannels

/// What a client asked a ``PusherLoadServer`` for, read from one text frame. Only the few
/// messages the load server answers are told apart; parsing cost does not matter here.
enum LoadServerRequest: Equatable {
    case subscribe(channel: String)
    case ping
    case other

    init<Bytes: Collection<UInt8>>(parsing text: Bytes) {
        guard let message = try? JSONValue(parsing: String(decoding: text, as: UTF8.self)),
            let event = message["event"]?.stringValue
        else {
            self = .other
            return
        }
        switch event {
        case "pusher:subscribe":
            // `data` is an object here; some clients send it as a string holding one.
            var data = message["data"]
            if let text = data?.stringValue { data = try? JSONValue(parsing: text) }
            if let channel = data?["channel"]?.stringValue {
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
