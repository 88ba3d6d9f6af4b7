// Watch the connection's state: the sequence starts with the current state, then every change,
// including reconnections with their attempt number, delay and cause (the server's close code).
//
// Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with PUSHER_PORT,
// PUSHER_TLS=0|1, PUSHER_PATH); it watches until you press Ctrl-C. Without PUSHER_KEY it runs
// offline: the fake server asks the client to reconnect (close code 4200), then drops the socket
// without a close frame, so the reconnection machinery shows itself.

import Foundation
import PusherChannels
import PusherChannelsTesting  // only for the offline fallback

// snippet.configuration
/// Where to connect: Pusher's cluster `PUSHER_CLUSTER`, or a self-hosted server at `PUSHER_HOST`.
func connectionConfiguration(from environment: [String: String]) -> PusherClientConfiguration {
    guard let host = environment["PUSHER_HOST"] else {
        return PusherClientConfiguration(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    }
    return PusherClientConfiguration(
        host: host,
        port: environment["PUSHER_PORT"].flatMap { Int($0) },
        useTLS: environment["PUSHER_TLS"] != "0",
        path: environment["PUSHER_PATH"] ?? ""
    )
}

// snippet.states
/// Prints every connection state until the client stops.
func printConnectionStates(of client: PusherClient) async {
    for await state in client.connectionStates {
        switch state {
        case .connected(let socketID):
            print("connected as \(socketID)")
        case .reconnecting(let attempt, let delay, let cause):
            let closeCode = cause.closeCode.map { " (close code \($0))" } ?? ""
            print("reconnecting (attempt \(attempt)) in \(delay): \(cause.message)\(closeCode)")
        case .failed(let error):
            print("gave up: \(error)")
        default:
            print(state)
        }
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment

if let key = environment["PUSHER_KEY"] {
    try await withPusherClient(key: key, configuration: connectionConfiguration(from: environment)) { client in
        await printConnectionStates(of: client)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning { server in
        try await withPusherClient(key: server.appKey, configuration: server.clientConfiguration()) { client in
            async let printing: Void = printConnectionStates(of: client)
            var connections = 0
            for await state in client.connectionStates where state.isConnected {
                connections += 1
                if connections == 1 { await server.close(code: 4200, reason: "please reconnect") }
                if connections == 2 { await server.drop() }
                if connections == 3 { break }
            }
            client.shutdown()  // ends the states' sequence once it has told the last ones
            await printing
        }
    }
}
