// SPDX-License-Identifier: MIT
// libFuzzer target: the server engine behind `serve` and FakePusherServer. The input is one
// operation per line; a line's first byte picks it (open a connection, with the app's key or the
// rest of the line as its URI; close one; let time pass; publish; anything else is a text message
// from one of the open connections, the rest of the line). Whatever comes, the engine must not
// crash, must send only to open connections, and once every connection has closed must hold
// nothing (no subscriber, member, signed-in user or watcher) with its webhooks in pairs.
//
// The seeds (Fuzz/Corpus/server) subscribe with signatures made with the secret "secret" for the
// socket ids the engine gives its first connections (1.107919, 2.115838).

import PusherCore

@testable import PusherServerEngine

/// Webhooks seen so far, by name.
struct WebhookTally {
    var counts: [String: Int] = [:]

    mutating func count(_ actions: [ServerAction], engine: ServerEngine) {
        for action in actions {
            switch action {
            case .send(_, let ids):
                for id in ids { check(engine.connections[id] != nil, "sent to connection \(id), which is not open") }
            case .webhook(let event):
                counts[event["name"]?.stringValue ?? "?", default: 0] += 1
            case .close(let id, _, _), .ping(let id):
                check(engine.connections[id] != nil, "closed or pinged connection \(id), which is not open")
            case .log:
                break
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzServer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    var settings = ServerSettings(appKey: "key", appSecret: "secret")
    settings.presenceMembers = 3
    settings.presenceUserInfoBytes = 64
    settings.clientEventDataBytes = 256
    settings.sendsSubscriptionCounts = true
    var engine = ServerEngine(settings: settings)
    var tally = WebhookTally()
    let lines = input.split(separator: UInt8(ascii: "\n"), maxSplits: 255, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        guard let selector = line.first.map(Int.init) else { continue }
        let text = String(decoding: line.dropFirst(), as: UTF8.self)
        let now = Duration.seconds(index * 20)
        let open = engine.openConnectionIDs
        let target = open.isEmpty ? nil : open[(selector >> 3) % open.count]
        switch selector & 7 {
        case 0:
            let (_, actions) = engine.open(uri: selector & 8 == 0 ? "/app/key?protocol=7" : text, now: now)
            tally.count(actions, engine: engine)
        case 1:
            if let target { tally.count(engine.closed(target), engine: engine) }
        case 2:
            tally.count(engine.expire(now: now), engine: engine)
        case 3:
            let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
            let (actions, _) = engine.publish(channel: parts.first ?? "", event: "e", data: parts.last ?? "")
            tally.count(actions, engine: engine)
            tally.count(engine.publishToUser(parts.first ?? "", event: "e", data: "{}"), engine: engine)
        case 4:
            if let target { tally.count(engine.close(target, code: 4009, reason: text), engine: engine) }
        default:
            if let target {
                tally.count(engine.receive(text: text, from: target, now: now), engine: engine)
            } else {
                let (_, actions) = engine.open(uri: "/app/key", now: now)
                tally.count(actions, engine: engine)
            }
        }
    }
    for id in engine.openConnectionIDs { tally.count(engine.closed(id), engine: engine) }
    check(engine.connections.isEmpty, "connections left: \(engine.connections.count)")
    check(engine.subscribers.isEmpty, "subscribers left: \(engine.subscribers.keys.sorted())")
    check(engine.presence.isEmpty, "presence rosters left: \(engine.presence.keys.sorted())")
    check(engine.signedIn.isEmpty, "signed-in users left: \(engine.signedIn.keys.sorted())")
    check(engine.watchers.values.allSatisfy(\.isEmpty), "watchers left")
    let counts = tally.counts
    check(counts["channel_occupied", default: 0] == counts["channel_vacated", default: 0], "unpaired: \(counts)")
    check(counts["member_added", default: 0] == counts["member_removed", default: 0], "unpaired: \(counts)")
    return 0
}
