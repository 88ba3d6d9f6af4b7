// SPDX-License-Identifier: MIT

/// The HTTP API calls, as named in spans (`pusher.NAME`) and in the `call` metric dimension.
enum ServerCall: String, Sendable {
    case trigger
    case batchTrigger = "batch_trigger"
    case sendToUser = "send_to_user"
    case terminateConnections = "terminate_connections"
    case channels
    case channel
    case users
    case get
    case post

    var spanName: String { "pusher." + self.rawValue }

    /// Whether the call changes something on the server (publishes, closes connections): once the
    /// server accepted it with a 2xx, it succeeds whatever the answer's body.
    var acts: Bool {
        switch self {
        case .trigger, .batchTrigger, .sendToUser, .terminateConnections, .post: true
        case .channels, .channel, .users, .get: false
        }
    }
}
