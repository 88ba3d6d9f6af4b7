// SPDX-License-Identifier: MIT

import Foundation

extension Seeds {
    /// Sequences of frames (one per line) for the engine fixture's channels and consumers.
    static var engine: [(String, [UInt8])] {
        let vault = "private-encrypted-vault"
        let lobby = "presence-lobby"
        let tampered = sealed(1, nonceByte: 2).replacingOccurrences(of: "\"nonce\":\"Ag", with: "\"nonce\":\"Aw")
        let sequences: [[String]] = [
            [
                frame("price", "news", #"{"p":1}"#), frame("other", "news", "x"),
                #"{"event":"price","channel":"news","data":{"p":2}}"#,
            ],
            [
                frame("client-typing", "private-room", "{}"), frame("client-other", "private-room", "{}"),
                frame("e", "nobody", "{}"),
            ],
            [
                frame("secret", vault, sealed(0)), frame("secret", vault, sealed(3, nonceByte: 3)),
                frame("secret", vault, sealed(4, nonceByte: 4)),
            ],
            [
                frame("secret", vault, sealed(1, nonceByte: 5).replacingOccurrences(of: "AQ", with: "Aq")),
                frame("secret", vault, sealed(2, nonceByte: 6)), frame("later", vault, sealed(5, nonceByte: 7)),
            ],
            [
                frame("secret", vault, tampered), frame("secret", vault, tampered), frame("secret", vault, tampered),
                frame("secret", vault, sealed(0)),
            ],
            [
                frame("secret", vault, #"{"nonce":"AAAA","ciphertext":"AAAA"}"#), frame("secret", vault, "not json"),
                frame("pusher:cache_miss", vault, nil), frame("pusher-update", vault, "plain"),
            ],
            [
                frame("pusher_internal:member_added", lobby, #"{"user_id":"9","user_info":{"name":"Ann"}}"#),
                frame("pusher_internal:member_added", lobby, #"{"user_id":9,"user_info":null}"#),
                frame("pusher_internal:member_removed", lobby, #"{"user_id":"7"}"#),
                frame("pusher_internal:member_removed", lobby, #"{"user_id":"404"}"#),
            ],
            [
                frame(
                    "pusher_internal:subscription_succeeded", lobby,
                    #"{"presence":{"ids":["me","1","2"],"hash":{"me":{"name":"Me"},"1":{"a":1},"2":null},"count":3}}"#),
                frame("pusher_internal:member_removed", lobby, #"{"user_id":"me"}"#),
            ],
            [
                frame(
                    "pusher_internal:subscription_succeeded", lobby,
                    #"{"presence":{"ids":[1,2.0,"x",null,[]],"hash":[],"count":"many"}}"#),
                frame("pusher_internal:member_added", lobby, #"{"user_id":null}"#),
            ],
            [
                frame("client-move", lobby, #"{"x":1}"#, userID: "7"),
                #"{"event":"client-move","channel":"presence-lobby","data":"{}","user_id":7}"#,
            ],
            [
                frame(
                    "pusher:subscription_error", "private-room", #"{"type":"AuthError","error":"denied","status":403}"#),
                frame("client-typing", "private-room", "{}"), frame("price", "news", "{}"),
            ],
            [
                frame("pusher:subscription_error", lobby, #"{"error":"no"}"#),
                frame("pusher_internal:member_added", lobby, #"{"user_id":"3"}"#),
            ],
            [frame("pusher:subscription_error", vault, "{}"), frame("secret", vault, sealed(0))],
            [
                frame("pusher:error", nil, #"{"message":"Existing subscription to channel private-room","code":null}"#),
                frame("pusher:error", nil, #"{"message":"Invalid signature","code":4009}"#),
            ],
            [frame("pusher:error", nil, #"{"message":"Over capacity","code":4100}"#), frame("price", "news", "{}")],
            [
                frame("pusher_internal:subscription_count", "news", #"{"subscription_count":42}"#),
                frame("pusher_internal:subscription_count", "gone", #"{"subscription_count":1}"#),
                frame("pusher_internal:subscription_count", "news", #"{"subscription_count":"x"}"#),
            ],
            [
                frame("pusher:connection_established", nil, #"{"socket_id":"9.9","activity_timeout":30}"#),
                frame("price", "news", "{}"),
            ],
            [
                frame("pusher:ping", nil, "{}"), frame("pusher:pong", nil, nil), "", "garbage",
                frame("price", "news", "{}"),
            ],
            [
                frame("hello", "#server-to-user-me", #"{"to":"me"}"#), frame("hello", "#server-to-user-you", "{}"),
                frame("pusher:signin_success", nil, #"{"user_data":"{\"id\":\"me\"}"}"#),
            ],
            [
                frame("pusher_internal:watchlist_events", nil, #"{"events":[{"name":"online","user_ids":["1"]}]}"#),
                frame("pusher_internal:unknown", "news", "{}"), frame("pusher:custom", "news", "{}"),
            ],
            [
                frame("pusher_internal:subscription_succeeded", "news", "{}"),
                frame("pusher_internal:subscription_succeeded", "private-room", "{}"),
                frame("pusher_internal:subscription_succeeded", vault, "{}"),
            ],
            [
                frame("e", "news", #"\ud83d\ude00 \ud800\u0041 "#),
                #"{"event":"e","channel":"news","data":"\ud800\u0041\\\"\/\n"}"#,
                #"{"event":"e","channel":"news","data":{"deep":[[[[[[[[[[1]]]]]]]]]]}}"#,
            ],
            [
                frame("pusher:connection_established", nil, #"{"socket_id":"9.9","activity_timeout":30}"#),
                frame("pusher:ping", nil, nil),
                frame("pusher:signin_success", nil, #"{"user_data":"{\"id\":\"me\"}"}"#),
                frame("pusher_internal:subscription_succeeded", "private-room", "{}"),
                frame("pusher_internal:subscription_succeeded", vault, "{}"),
                frame(
                    "pusher_internal:subscription_succeeded", lobby,
                    #"{"presence":{"ids":["me"],"hash":{"me":null},"count":1}}"#),
                frame("secret", vault, sealed(2, nonceByte: 8)), frame("hello", "#server-to-user-me", "{}"),
            ],
        ]
        return named("frames", sequences.map { $0.joined(separator: "\n") })
    }
}
