// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// Which endpoint each connection attempt goes to, driven by the states the client publishes.
@Suite("Endpoint rotation")
struct EndpointRotationTests {
    static let failed = ConnectionState.reconnecting(
        attempt: 1, delay: .seconds(1), cause: PusherError(.transportFailed, "refused"))

    /// Opens an attempt, then tells the rotation how it went; returns the attempt's endpoint.
    static func attempt(_ rotation: inout EndpointRotation<String>, then state: ConnectionState) -> String {
        let endpoint = rotation.nextAttempt().endpoint
        rotation.stateChanged(.connecting(attempt: 0))
        rotation.stateChanged(state)
        return endpoint
    }

    @Test("attempts that fail before connecting go round robin, in order")
    func failedAttemptsMoveOn() {
        var rotation = EndpointRotation(first: "a", fallbacks: ["b", "c"])
        #expect(rotation.current == "a")
        let endpoints = (0..<5).map { _ in Self.attempt(&rotation, then: Self.failed) }
        #expect(endpoints == ["a", "b", "c", "a", "b"])
    }

    @Test("a connection that was established and dropped is reconnected to the same endpoint first")
    func establishedStays() {
        var rotation = EndpointRotation(first: "a", fallbacks: ["b"])
        #expect(Self.attempt(&rotation, then: Self.failed) == "a")
        #expect(Self.attempt(&rotation, then: .connected(socketID: "1.1")) == "b")
        // The drop after the connection: same endpoint.
        rotation.stateChanged(Self.failed)
        let again = rotation.nextAttempt()
        #expect(again.endpoint == "b")
        #expect(!again.movedOn)
        rotation.stateChanged(Self.failed)
        // That retry failed before connecting: next endpoint.
        let next = rotation.nextAttempt()
        #expect(next.endpoint == "a")
        #expect(next.movedOn)
    }

    @Test("an attempt given up on request (disconnected) does not count against its endpoint")
    func disconnectKeepsEndpoint() {
        var rotation = EndpointRotation(first: "a", fallbacks: ["b"])
        #expect(Self.attempt(&rotation, then: .disconnected) == "a")
        #expect(rotation.nextAttempt().endpoint == "a")
    }

    @Test("with one endpoint every attempt goes there and nothing is reported as moving on")
    func singleEndpoint() {
        var rotation = EndpointRotation(first: "a")
        for _ in 0..<3 {
            let attempt = rotation.nextAttempt()
            #expect(attempt.endpoint == "a")
            #expect(!attempt.movedOn)
            rotation.stateChanged(Self.failed)
        }
    }

    @Test("replacing the endpoints sends the next attempt to the new first one")
    func replaceStartsAtFirst() {
        var rotation = EndpointRotation(first: "a", fallbacks: ["b"])
        _ = Self.attempt(&rotation, then: Self.failed)
        _ = rotation.nextAttempt()  // "b", in flight
        rotation.replace(first: "x", fallbacks: ["y"])
        #expect(rotation.current == "x")
        let attempt = rotation.nextAttempt()
        #expect(attempt.endpoint == "x")
        #expect(!attempt.movedOn)
        rotation.stateChanged(Self.failed)
        #expect(rotation.nextAttempt().endpoint == "y")
    }
}
