// Watch the connection's state: the sequence starts with the current state, then every change,
// including reconnections with their attempt number, delay and cause (the server's close code).
//
// Offline, the fake server asks the client to reconnect (close code 4200), then drops the socket
// without a close frame, so the reconnection machinery shows itself.

// snippet.hide
import PusherChannels
import PusherChannelsTesting

print(ExampleEnvironment.summary)
try await ExampleEnvironment.withClient { client, server in
    var connections = 0
    // snippet.show
    for await state in client.connectionStates {
        switch state {
        case .connected(let socketID):
            print("connected as \(socketID)")
            // snippet.hide
            connections += 1
            if let server {
                if connections == 1 { await server.close(code: 4200, reason: "please reconnect") }
                if connections == 2 { await server.drop() }
            }
            if connections == 3 && server != nil { return }
        // snippet.show
        case .reconnecting(let attempt, let delay, let cause):
            print("reconnecting (attempt \(attempt)) in \(delay) because \(cause.message), close code \(cause.closeCode ?? 0)")
        case .failed(let error):
            print("gave up: \(error)")
        default:
            print(state)
        }
    }
    // snippet.hide
}
