// SPDX-License-Identifier: MIT

@testable import PusherCore

/// A connected, signed-in engine with consumers on a public, a private, a presence and an encrypted
/// channel (real secretbox with ``FuzzKey``), all subscribed: the state inbound frames are fed to.
struct EngineFixture {
    enum Consumer: Hashable {
        /// Events of these channels, optionally only of one name.
        case channels(Set<String>, eventName: String?)
        case presence(String)
        case all
        case user
    }

    static let socketID = "123.456"
    static let presence = "presence-lobby"
    static let encrypted = "private-encrypted-vault"
    static let channelData = #"{"user_id":"me","user_info":{"name":"Me"}}"#

    var engine: ClientEngine
    var generation: Generation = 0
    /// Every live consumer, by number.
    var consumers: [ConsumerID: Consumer] = [:]

    /// Built once; each input starts from a copy.
    static let shared = EngineFixture()

    private init() {
        self.engine = ClientEngine(
            configuration: .init(
                hasAuthorizer: true,
                encryptionAvailable: true,
                open: { message, key in EncryptedPayload.open(message, key: key) },
                key: { EncryptedPayload.key(fromSharedSecret: $0) }
            )
        )
        for action in self.engine.connect(at: .zero) {
            if case .openConnection(let generation) = action { self.generation = generation }
        }
        _ = self.engine.transportOpened(generation: self.generation, at: .zero)
        self.receive(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"123.456\",\"activity_timeout\":120}"}"#)
        _ = self.engine.signIn(at: .zero)
        _ = self.engine.userAuthenticated(socketID: Self.socketID, auth: "key:sig", userData: #"{"id":"me"}"#)
        self.receive(#"{"event":"pusher:signin_success","data":"{\"user_data\":\"{\\\"id\\\":\\\"me\\\"}\"}"}"#)
        self.add(.channel("news", eventName: nil, authorization: nil), .channels(["news"], eventName: nil))
        self.add(.channel("news", eventName: "price", authorization: nil), .channels(["news"], eventName: "price"))
        self.add(
            .channels(["news", "private-room"], eventName: nil), .channels(["news", "private-room"], eventName: nil))
        self.add(
            .channel("private-room", eventName: "client-typing", authorization: nil),
            .channels(["private-room"], eventName: "client-typing"))
        self.add(.presence(Self.presence, authorization: nil), .presence(Self.presence))
        self.add(
            .channel(Self.presence, eventName: nil, authorization: nil), .channels([Self.presence], eventName: nil))
        self.add(
            .channel(Self.encrypted, eventName: nil, authorization: nil), .channels([Self.encrypted], eventName: nil))
        self.add(.all, .all)
        self.add(.user(eventName: nil), .user)
        for channel in ["private-room", Self.presence, Self.encrypted] {
            _ = self.engine.authorized(
                channel: ChannelName(unchecked: channel), socketID: Self.socketID,
                result: .success(Self.authorization(of: channel)))
        }
        for channel in ["news", "private-room", Self.encrypted] {
            self.receive(#"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#)
        }
        self.receive(
            #"{"event":"pusher_internal:subscription_succeeded","channel":"presence-lobby","#
                + #""data":"{\"presence\":{\"ids\":[\"me\",\"7\"],\"hash\":{\"me\":{\"name\":\"Me\"},\"7\":null},\"count\":2}}"}"#
        )
        guard self.engine.state.socketID == Self.socketID, self.engine.user != nil,
            self.engine.members(of: Self.presence)?.count == 2
        else {
            fatalError("the engine fixture did not reach its state")
        }
    }

    /// What the authorizer answers for `channel`.
    static func authorization(of channel: String) -> ChannelAuthorization {
        switch channel {
        case Self.presence: ChannelAuthorization(auth: "key:b", channelData: Self.channelData)
        case Self.encrypted: ChannelAuthorization(auth: "key:c", sharedSecret: FuzzKey.sharedSecret)
        default: ChannelAuthorization(auth: "key:a")
        }
    }

    private mutating func add(_ request: ClientEngine.ConsumerRequest, _ consumer: Consumer) {
        guard let (id, _) = try? self.engine.addConsumer(request, at: .zero) else {
            fatalError("cannot add \(request)")
        }
        self.consumers[id] = consumer
    }

    private mutating func receive(_ text: String) {
        _ = self.engine.received([.text(text)], generation: self.generation, at: .zero)
    }
}
