// SPDX-License-Identifier: MIT
// What the fragments of README.md and the DocC articles take as given, declared once for
// scripts/check-docs: the reader's client and configuration, secrets, their backend. Each is a stand-in
// of the type the prose says it is; a fragment that declares the name itself uses its own.
// Never built into the package.

import HTTPTypes
import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting

// MARK: The client side

/// "the client": created and run elsewhere.
let client = PusherClient(key: "app-key", configuration: .init(cluster: "eu"))
/// The configuration being written before the client is created.
nonisolated(unsafe) var configuration = PusherClientConfiguration(cluster: "eu")
let appSecret = "app-secret"
/// The base64 master key of encrypted channels.
let encryptionMasterKey = "0123456789abcdef0123456789abcdef0123456="
/// An app's decoded event data.
struct Order: Codable, Sendable {
    var id: Int
}

/// The reader's own backend, answering authorizations.
struct Backend: Sendable {
    func authorize(_ socketID: String, _ channel: String) async throws -> ChannelAuthorization {
        ChannelAuthorization(auth: "app-key:signature")
    }
    func authorize(socketID: String, channel: String) async throws -> (auth: String, channelData: String?) {
        ("app-key:signature", nil)
    }
    func requestSnapshot() async throws {}
}
let backend = Backend()
let myBackend = Backend()
/// Reloads the app's state after events may have been missed.
func reloadOrders(changedWithin window: Duration) async throws {}
/// Short-lived tokens for the auth endpoint or the upgrade request.
struct Tokens: Sendable {
    func current() async throws -> String { "token" }
    func fresh() async throws -> String { "token" }
}
let tokens = Tokens()
/// A test's fake server, inside `FakePusherServer.withRunning { server in … }`.
let server: FakePusherServer = { fatalError("a placeholder for the type checker") }()

// MARK: The server side

let appID = "1234"
let key = "app-key"
let secret = "app-secret"
let masterKeyBase64 = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
let masterKey = try? PusherServerConfiguration.MasterKey(base64: masterKeyBase64)
let senderSocketID = "123.456"
let serverConfiguration: PusherServerConfiguration = { fatalError("a placeholder for the type checker") }()
let pusher = PusherServer(configuration: serverConfiguration)
/// A request's body, its bytes exactly as received, and a webhook's headers.
let body: [UInt8] = []
let bytes: [UInt8] = []
let keyHeader = "app-key"
let signatureHeader = "0123abcd"
/// The web framework's request.
struct IncomingRequest: Sendable {
    var headers: HTTPFields
}
let request = IncomingRequest(headers: [:])
/// The signed-in user of the request's session, if any.
struct AppUser: Sendable {
    var id: String
    var name: String
}
let user: AppUser? = AppUser(id: "42", name: "Ada")
/// Stores what a webhook reported.
func store(_ event: WebhookEvent) async throws {}
