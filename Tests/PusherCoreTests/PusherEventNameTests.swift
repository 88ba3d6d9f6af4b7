// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Protocol event names")
struct PusherEventNameTests {
    @Test("the prefixes are exact")
    func prefixes() {
        #expect(PusherEventName.pusherPrefix == "pusher:")
        #expect(PusherEventName.internalPrefix == "pusher_internal:")
    }

    @Test(
        "protocol events are exactly the names starting with pusher: or pusher_internal:",
        arguments: [
            ("pusher:ping", true),
            ("pusher:", true),
            ("pusher_internal:", true),
            ("pusher_internal:member_added", true),
            ("pusher:cache_miss", true),
            ("pusher:\u{301}", true),
            ("pusher-update", false),
            ("pusherX", false),
            ("pusher", false),
            ("pusher_internal", false),
            ("pusher_internalX:", false),
            ("pusher_:", false),
            ("Pusher:ping", false),
            (" pusher:ping", false),
            ("client-pusher:x", false),
            ("price", false),
            ("p", false),
            ("", false),
        ]
    )
    func isProtocolEvent(name: String, expected: Bool) {
        #expect(PusherEventName.isProtocolEvent(name) == expected)
    }

    @Test("every reserved event name is a protocol event")
    func reservedNames() {
        let names = [
            PusherEventName.connectionEstablished, PusherEventName.error, PusherEventName.ping, PusherEventName.pong,
            PusherEventName.subscribe, PusherEventName.unsubscribe, PusherEventName.subscriptionError,
            PusherEventName.subscriptionSucceeded, PusherEventName.subscriptionCount, PusherEventName.memberAdded,
            PusherEventName.memberRemoved, PusherEventName.signIn, PusherEventName.signInSuccess,
            PusherEventName.watchlistEvents, PusherEventName.cacheMiss,
        ]
        for name in names {
            #expect(PusherEventName.isProtocolEvent(name), "\(name)")
        }
    }
}
