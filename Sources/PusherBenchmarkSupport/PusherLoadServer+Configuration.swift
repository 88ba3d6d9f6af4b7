// SPDX-License-Identifier: MIT

extension PusherLoadServer {
    /// What a ``PusherLoadServer`` sends.
    public struct Configuration: Sendable {
        /// The channels a client must subscribe to before events flow; events go to them in turn
        /// (round-robin).
        public var channels: [String]
        /// Events written as soon as a connection has subscribed to every channel; `nil` waits for
        /// ``PusherLoadServer/send(events:)``.
        public var eventsWhenSubscribed: Int?
        /// Bytes of each event's data (the JSON text the client hands out, before escaping). At
        /// least 16.
        public var payloadBytes: Int
        /// Whether events are sealed (NaCl secretbox) with ``encryptionKey``, as on
        /// `private-encrypted-` channels. Needs libsodium.
        public var encrypted: Bool
        /// The 32-byte key encrypted events are sealed with; ``PusherLoadServer/clientConfiguration()``
        /// hands it to the client as every channel's shared secret.
        public var encryptionKey: [UInt8]
        /// The event name of every event.
        public var eventName: String

        public init(
            channels: [String],
            eventsWhenSubscribed: Int? = nil,
            payloadBytes: Int = 100,
            encrypted: Bool = false,
            encryptionKey: [UInt8] = Self.defaultEncryptionKey,
            eventName: String = "load"
        ) {
            self.channels = channels
            self.eventsWhenSubscribed = eventsWhenSubscribed
            self.payloadBytes = payloadBytes
            self.encrypted = encrypted
            self.encryptionKey = encryptionKey
            self.eventName = eventName
        }

        /// `count` channels named `load` (one) or `load-0` … `load-<count - 1>`, with the
        /// `private-encrypted-` prefix when `encrypted`.
        public init(
            channelCount count: Int,
            eventsWhenSubscribed: Int? = nil,
            payloadBytes: Int = 100,
            encrypted: Bool = false
        ) {
            self.init(
                channels: Self.channelNames(count: count, encrypted: encrypted),
                eventsWhenSubscribed: eventsWhenSubscribed,
                payloadBytes: payloadBytes,
                encrypted: encrypted
            )
        }

        /// The names ``init(channelCount:eventsWhenSubscribed:payloadBytes:encrypted:)`` uses.
        public static func channelNames(count: Int, encrypted: Bool) -> [String] {
            let base = encrypted ? "private-encrypted-load" : "load"
            return count == 1 ? [base] : (0..<max(0, count)).map { "\(base)-\($0)" }
        }

        /// A fixed key (bytes 0 to 31): the load server is for measurements, not secrets.
        public static let defaultEncryptionKey: [UInt8] = Array(0..<32)
    }
}
