// SPDX-License-Identifier: MIT

import PusherCore

/// Drives a ``ClientEngine`` the way the client does, in virtual time, for table-driven tests.
struct EngineScript {
    typealias Action = ClientEngine.Action

    var engine: ClientEngine
    var now: Duration = .zero
    var generation: Generation = 0

    init(
        hasAuthorizer: Bool = true, clientEventRateLimit: Int = 10, clientEventQueueLimit: Int = 100,
        maximumPresenceMembers: Int = 10_000, subscriptionRetry: SubscriptionRetry = .never
    ) {
        self.engine = ClientEngine(
            configuration: .init(
                hasAuthorizer: hasAuthorizer,
                encryptionAvailable: true,
                clientEventRateLimit: clientEventRateLimit,
                clientEventQueueLimit: clientEventQueueLimit,
                maximumPresenceMembers: maximumPresenceMembers,
                open: { message, key in
                    // A stand-in cipher: the "ciphertext" is the plaintext prefixed with the key's first byte.
                    guard let data = message.data, let first = data.first else { return .malformed("no data") }
                    return first == Character(Unicode.Scalar(key[0])) ? .plaintext(String(data.dropFirst())) : .wrongKey
                },
                key: { secret in secret.count == 1 ? Array(secret.utf8) : nil },
                subscriptionRetry: subscriptionRetry
            )
        )
    }

    /// Connects and completes the handshake with `socketID`; returns what that did.
    @discardableResult
    mutating func connect(socketID: String = "1.1") -> [Action] {
        var actions = self.engine.connect(at: self.now)
        // Already connecting (a reconnect under way) opens the next generation.
        self.generation =
            actions.compactMap { if case .openConnection(let generation) = $0 { generation } else { nil } }.last
            ?? self
            .generation.next
        actions += self.engine.transportOpened(generation: self.generation, at: self.now)
        actions += self.receive(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":120}"}"#
        )
        return actions
    }

    mutating func receive(_ texts: String...) -> [Action] {
        self.engine.received(texts.map { .text($0) }, generation: self.generation, at: self.now)
    }

    mutating func add(_ request: ClientEngine.ConsumerRequest) throws(PusherError) -> (
        id: ConsumerID, actions: [Action]
    ) {
        guard let result = try self.engine.addConsumer(request, at: self.now) else {
            throw PusherError(.alreadyRunning, "finished")
        }
        return result
    }

    /// A channel event as a server sends it (data as a JSON string).
    static func event(_ name: String, on channel: String, data: String = "{}") -> String {
        PusherMessage(event: name, channel: channel, data: data).serializedWithStringData
    }

    static func succeeded(_ channel: String) -> String {
        #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#
    }
}

extension Array where Element == ClientEngine.Action {
    /// The texts sent on the socket.
    var sent: [String] {
        self.compactMap { if case .send(_, let text) = $0 { text } else { nil } }
    }

    /// (consumer, event name, data) of every delivery, in order.
    var deliveries: [Delivery] {
        self.compactMap {
            if case .deliver(let event, let id) = $0 { Delivery(id, event.name, event.data) } else { nil }
        }
    }

    var reported: [PusherError.Code] {
        self.compactMap { if case .report(let error) = $0 { error.code } else { nil } }
    }
}

struct Delivery: Hashable, CustomStringConvertible {
    var consumer: ConsumerID
    var name: String
    var data: String

    init(_ consumer: ConsumerID, _ name: String, _ data: String) {
        (self.consumer, self.name, self.data) = (consumer, name, data)
    }

    var description: String { "\(self.consumer.rawValue):\(self.name)=\(self.data)" }
}
