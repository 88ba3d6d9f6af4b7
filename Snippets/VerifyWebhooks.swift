// Receive Pusher's webhooks: check that they come from Pusher, then read their events.
//
// Pusher POSTs webhooks with the headers X-Pusher-Key and X-Pusher-Signature, the hex
// HMAC-SHA256 of the body under the app secret. `handleWebhook(headers:body:verifier:)` is what
// your route runs, whatever the web framework: hand it the body's bytes exactly as they arrived.
// Client events of private-encrypted channels are decrypted with the encryption master key. This
// runs offline: it hands the handler two webhooks as Pusher sends them (signed by Pusher's official
// Python library with demo credentials), one of them altered, and one with a key it does not know,
// and prints what the handler answers.

import Foundation
import PusherChannelsServer

// snippet.handler
/// Verifies one webhook and handles its events; returns the HTTP status to answer with.
func handleWebhook(headers: [(name: String, value: String)], body: [UInt8], verifier: WebhookVerifier) -> Int {
    let webhook: Webhook
    do {
        webhook = try verifier.verify(headers: headers, body: body)
    } catch {
        // Unknown key or bad signature: nothing of the body was decoded. Refuse it.
        print("  refused: \(error.message)")
        return error.code == .invalidWebhook ? 400 : 401
    }
    for event in webhook.events {
        switch event.kind {
        case .channelOccupied: print("  \(event.channel ?? "?") is occupied")
        case .channelVacated: print("  \(event.channel ?? "?") is vacated")
        case .memberAdded: print("  \(event.userID ?? "?") joined \(event.channel ?? "?")")
        case .memberRemoved: print("  \(event.userID ?? "?") left \(event.channel ?? "?")")
        case .clientEvent where event.decryptionError != nil:
            print("  an encrypted client event did not decrypt: \(event.decryptionError?.message ?? "")")
        case .clientEvent:
            print("  \(event.event ?? "?") on \(event.channel ?? "?"): \(event.data ?? "")")
        default: print("  \(event.name): \(event.fields.jsonText)")
        }
    }
    return 200
}

// snippet.end
// Demo credentials (in your server: the app's key, secret and master key, from your configuration or
// `server.webhookVerifier`). Give several credentials while you rotate keys.
let verifier = WebhookVerifier(
    credentials: [WebhookCredential(key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")],
    masterKey: try PusherServerConfiguration.MasterKey(base64: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
)

/// Two webhooks as Pusher sends them: body and signature.
let webhooks = [
    (
        body:
            #"{"time_ms":1700000000123,"events":[{"name":"channel_occupied","channel":"my-channel"},{"name":"member_added","channel":"presence-my-room","user_id":"alice"},{"name":"channel_vacated","channel":"my-channel"}]}"#,
        signature: "7dbe2fc7cd4324b1ea8006a6f77c0c7f08354ebafd35d9d6fdb3755354a4c374"
    ),
    (
        body:
            #"{"time_ms":1700000000123,"events":[{"name":"client_event","channel":"private-encrypted-my-channel","event":"client-typing","data":"{\"nonce\": \"8PHy8/T19vf4+fr7/P3+/wABAgMEBQYH\", \"ciphertext\": \"Vkk7Dl4Mk6ChtdN87cX03m9q0GDRVMJ0ZZWo1dN/JCjlwk7T\"}","socket_id":"1234.1234"}]}"#,
        signature: "9664bb51c160399851acf4b108d7033c0c10a6d97e951c26a40b9f5e687908d9"
    ),
]

for (index, webhook) in webhooks.enumerated() {
    print("Webhook \(index + 1):")
    let headers = [
        (name: "X-Pusher-Key", value: "278d425bdf160c739803"), (name: "X-Pusher-Signature", value: webhook.signature),
    ]
    print("  -> \(handleWebhook(headers: headers, body: Array(webhook.body.utf8), verifier: verifier))")
}

print("Webhook 1 with one character changed:")
let tampered = Array(webhooks[0].body.replacingOccurrences(of: "alice", with: "alicf").utf8)
let headers = [
    (name: "X-Pusher-Key", value: "278d425bdf160c739803"), (name: "X-Pusher-Signature", value: webhooks[0].signature),
]
print("  -> \(handleWebhook(headers: headers, body: tampered, verifier: verifier))")

print("Webhook 1 with a key this app does not know:")
let strangers = [
    (name: "X-Pusher-Key", value: "someone-else"), (name: "X-Pusher-Signature", value: webhooks[0].signature),
]
print("  -> \(handleWebhook(headers: strangers, body: Array(webhooks[0].body.utf8), verifier: verifier))")
