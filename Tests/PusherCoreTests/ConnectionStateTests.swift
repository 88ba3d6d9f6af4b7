// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Connection state")
struct ConnectionStateTests {
    static let cause = PusherError(.connectionClosed, "closed", closeCode: 4100)

    @Test(
        "only connected has a socket id; every state describes itself",
        arguments: [
            (ConnectionState.initialized, String?.none, "initialized"),
            (.connecting(attempt: 0), nil, "connecting(attempt: 0)"),
            (.connected(socketID: "12.34"), "12.34", "connected(socketID: 12.34)"),
            (
                .reconnecting(attempt: 2, delay: .seconds(3), cause: cause), nil,
                "reconnecting(attempt: 2, delay: 3.0 seconds, cause: connectionClosed: closed (code 4100))"
            ),
            (.disconnected, nil, "disconnected"),
            (
                .failed(PusherError(.reconnectAttemptsExhausted, "gave up")), nil,
                "failed(reconnectAttemptsExhausted: gave up)"
            ),
        ]
    )
    func states(state: ConnectionState, socketID: String?, description: String) {
        #expect(state.socketID == socketID)
        #expect(state.isConnected == (socketID != nil))
        #expect(state.description == description)
    }
}
