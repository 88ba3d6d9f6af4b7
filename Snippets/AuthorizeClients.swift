// Answer your own clients' authorization requests: private, presence and private-encrypted
// channels, and user sign-in.
//
// Clients (pusher-js, this package's PusherClient with ChannelAuthorizer.endpoint, the mobile SDKs)
// POST a form to your backend: `socket_id` and `channel_name`, or `socket_id` alone to sign in.
// `answer(formBody:user:server:)` is what your route runs, whatever the web framework: it decodes
// and validates the form, signs with the app secret, and returns the status and JSON to send back.
// Signing needs no network. It uses PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET and
// PUSHER_MASTER_KEY when they are set, demo credentials otherwise, and prints its answers to a few
// requests (or to the form body given as the first argument).

import Foundation
import PusherChannelsServer

// snippet.handler
/// The answer to one authorization request from `user`, the user your session says is signed in:
/// HTTP status and JSON body (`Content-Type: application/json`).
func answer(formBody: String, user: PusherUser, server: PusherServer) -> (status: Int, json: String) {
    do {
        let request = try AuthorizationRequest(formBody: formBody)
        guard let channel = request.channelName else {
            // No channel: the client signs in as `user`.
            return (200, try server.authenticateUser(socketID: request.socketID, user: user).json)
        }
        // Decide here whether `user` may use `channel`; answer 403 when not.
        guard !channel.hasPrefix("private-admin-") else { return (403, #"{"error":"forbidden"}"#) }
        let member = PresenceMember(userID: user.id, userInfo: user.info)
        return (200, try server.authorize(request, member: member).json)
    } catch {
        // A malformed request is the client's fault (400); a missing master key is ours (500).
        let status = error.code == .invalidArgument ? 400 : 500
        return (status, #"{"error":"# + JSONValue.string(error.message).jsonText + "}")
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let configuration = try PusherServerConfiguration(
    appID: environment["PUSHER_APP_ID"] ?? "1234",
    key: environment["PUSHER_KEY"] ?? "278d425bdf160c739803",
    secret: environment["PUSHER_SECRET"] ?? "7ad3773142a6692b25b8",
    cluster: environment["PUSHER_CLUSTER"] ?? "mt1",
    encryptionMasterKey: PusherServerConfiguration.MasterKey(
        base64: environment["PUSHER_MASTER_KEY"] ?? "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
)
let server = PusherServer(configuration: configuration)
let user = PusherUser(id: "alice", info: ["name": "Alice"], watchlist: ["bob"])

let requests =
    CommandLine.arguments.count > 1
    ? Array(CommandLine.arguments.dropFirst())
    : [
        "socket_id=1234.1234&channel_name=private-orders",
        "socket_id=1234.1234&channel_name=presence-lobby",
        "socket_id=1234.1234&channel_name=private-encrypted-payroll",
        "socket_id=1234.1234",
        "socket_id=1234.1234&channel_name=private-admin-panel",
        "socket_id=1234&channel_name=private-orders",
        "socket_id=1234.1234&channel_name=public-news",
    ]
for formBody in requests {
    let (status, json) = answer(formBody: formBody, user: user, server: server)
    print("POST \(formBody)\n  -> \(status) \(json)")
}
