// SPDX-License-Identifier: MIT
// What the Hummingbird fragments of README.md and the DocC articles take as given, declared once
// for `scripts/check-docs --examples` (see README.md in this folder). `ChatApp`, the Examples
// package's app, stands for "your app". Never built into a package.

import ChatApp
import Hummingbird
import PusherChannelsServer
import PusherChannelsTesting

/// The app's router, where the routes are added.
nonisolated(unsafe) let router = Router(context: BasicRequestContext.self)
let configuration: PusherServerConfiguration = { fatalError("a placeholder for the type checker") }()
let pusher = PusherServer(configuration: configuration)
let secret = "app-secret"
/// The signed-in user of a request's session, if any: your app's own type.
struct SessionUser: Sendable {
    var id: String
    init?(_ request: Request) { nil }
}
/// One of the endpoint calls' answers.
let answer: PusherEndpointResponse = { fatalError("a placeholder for the type checker") }()
/// A message posted to the app, and the event published for it.
struct PostedMessage: Sendable {
    var channel: String
    var socketID: String?
}
let message = PostedMessage(channel: "chat", socketID: nil)
struct MessageEvent: Encodable, Sendable {
    var text: String
}
let event = MessageEvent(text: "hi")
/// Your app's settings, pointed at a fake server.
func settings(for pusher: FakePusherServer, port: Int) -> AppSettings {
    fatalError("a placeholder for the type checker")
}
