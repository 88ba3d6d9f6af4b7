// SPDX-License-Identifier: MIT

// Liveness: a connection silent for the activity timeout is pinged; one that does not answer within
// the pong timeout is closed with 4201, as the protocol says.
extension ServerEngine {
    /// Pings the connections silent for ``ServerSettings/activityTimeout`` and closes with 4201
    /// those pinged ``ServerSettings/pongTimeout`` ago that sent nothing since. The driver calls it
    /// regularly (its period bounds how late a timeout is noticed).
    package mutating func expire(now: Duration) -> [ServerAction] {
        guard let timeout = self.settings.activityTimeout.map({ Duration.seconds($0) }) else { return [] }
        var actions: [ServerAction] = []
        for id in self.connections.keys.sorted() {
            guard let connection = self.connections[id], !connection.closingByServer else { continue }
            if let pinged = connection.pingedAt {
                guard let pongTimeout = self.settings.pongTimeout, now - pinged >= pongTimeout else { continue }
                actions.append(.log(.info, "\(connection.socketID): no answer to the server's ping: closing with 4201"))
                self.close(id, code: 4201, reason: "Pong reply not received", into: &actions)
            } else if now - connection.lastActivity >= timeout {
                self.connections[id]?.pingedAt = now
                actions.append(.ping(id))
            }
        }
        return actions
    }
}
