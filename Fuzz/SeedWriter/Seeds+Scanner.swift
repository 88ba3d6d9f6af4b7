// SPDX-License-Identifier: MIT

extension Seeds {
    /// Single frames of every kind the client reads, and JSON corner cases.
    static var scanner: [(String, [UInt8])] {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let deepObject = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)
        let frames = [
            frame("pusher:connection_established", nil, #"{"socket_id":"123.456","activity_timeout":120}"#),
            frame("pusher_internal:subscription_succeeded", "news", "{}"),
            frame(
                "pusher_internal:subscription_succeeded", "presence-lobby",
                #"{"presence":{"ids":["me","7",8],"hash":{"me":{"name":"Me"},"7":null,"8":[1]},"count":3}}"#),
            frame(
                "pusher_internal:member_added", "presence-lobby",
                #"{"user_id":"9","user_info":{"name":"Ann","tags":["a"]}}"#),
            frame("pusher_internal:member_removed", "presence-lobby", #"{"user_id":9}"#),
            frame("price", "news", #"{"symbol":"ABC","price":123.45}"#),
            #"{"event":"price","channel":"news","data":{"symbol":"ABC","price":[1,2.5e3,-0,true,false,null]}}"#,
            frame("client-typing", "presence-lobby", #"{"typing":true}"#, userID: "7"),
            #"{"event":"client-typing","channel":"presence-lobby","data":"{}","user_id":7}"#,
            frame("pusher:error", nil, #"{"message":"Over capacity","code":4100}"#),
            #"{"event":"pusher:error","data":{"message":"Existing subscription to channel private-room","code":null}}"#,
            #"{"event":"pusher:error","data":"plain text"}"#,
            frame("pusher:subscription_error", "private-room", #"{"type":"AuthError","error":"denied","status":401}"#),
            #"{"event":"pusher:ping","data":{}}"#,
            #"{"event":"pusher:pong"}"#,
            frame("pusher:signin_success", nil, #"{"user_data":"{\"id\":\"me\"}"}"#),
            frame(
                "pusher_internal:watchlist_events", nil,
                #"{"events":[{"name":"online","user_ids":["1","2"]},{"name":"offline","user_ids":["3"]}]}"#),
            frame("pusher_internal:subscription_count", "news", #"{"subscription_count":42}"#),
            frame("pusher:cache_miss", "cache-news", nil),
            frame("secret", "private-encrypted-vault", sealed(0)),
            #"{"event":"e","channel":"news","data":"\"\\\/\b\f\n\r\t\u0000\u001f\u00e9\u20ac"}"#,
            #"{"event":"e","channel":"news","data":"\ud83d\ude00 \ud800 \udc00 \ud800\u0041 \ud800\ud800\udc00 \uDBFF\uDFFF"}"#,
            #"{"event":"e","channel":"news","data":"ünïcødé ✓ 😀"}"#,
            #"{"event":"e","data":["# + deep + "]}",
            #"{"event":"e","data":"# + deepObject + "}",
            #"{"event":"e","data":[0,-1,1.5,-2.5E-3,1e+400,12345678901234567890]}"#,
            #"{"event":"a","event":"b","channel":"x","channel":null,"data":1,"data":"2"}"#,
            #"{"ev\u0065nt":"e","\u0063hannel":"c","d\u0061ta":"d","user\u005fid":"u"}"#,
            #"{"event":"e","data":{"a":"\q"}}"#,
            "  \t\r\n{ \"event\" : \"e\" , \"data\" : null }  \n",
            "{}", "[]", #""pusher:ping""#, #"{"event":"e""#, #"{"event":"\u12"}"#,
            #"{"nonce":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB","ciphertext":"AAAA"}"#,
        ]
        var seeds = named("frame", frames)
        // Invalid UTF-8 inside a string, and a truncated multi-byte sequence at the end.
        seeds.append(
            (
                "utf8-invalid",
                Array(#"{"event":"e","data":"a"#.utf8) + [0xFF, 0xC3, 0x28, 0xE2, 0x82] + Array(#""}"#.utf8)
            ))
        seeds.append(("utf8-truncated", Array(#"{"event":"e","data":"\u00e9"#.utf8) + [0xF0, 0x9F, 0x98]))
        // Found by fuzzing: an invalid escape in a skipped string (`\` and a byte that is no escape).
        seeds.append(("crash-invalid-escape", [0xFF, 0x5C, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x29, 0x36]))
        return seeds
    }
}
