// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannelsServer

/// A transport that records what would be sent and answers with a fixed response.
actor RecordingTransport: PusherHTTPTransport {
    private(set) var requests: [SignedRequest] = []
    private(set) var headers: [HTTPHeaders] = []
    private(set) var timeouts: [Duration] = []
    var response: PusherHTTPResponse

    init(response: PusherHTTPResponse = PusherHTTPResponse(status: 200, body: "{}")) {
        self.response = response
    }

    func answer(_ response: PusherHTTPResponse) { self.response = response }

    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse {
        self.requests.append(request)
        self.headers.append(headers)
        self.timeouts.append(timeout)
        return self.response
    }
}

/// The app the tests use: the vectors' credentials.
enum TestApp {
    static let appID = "1234"
    static let key = "278d425bdf160c739803"
    static let secret = "7ad3773142a6692b25b8"
    static let masterKeyBase64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    static func configuration(
        limits: PusherServerConfiguration.Limits = .pusher, masterKey: Bool = true
    ) throws -> PusherServerConfiguration {
        try PusherServerConfiguration(
            appID: Self.appID, key: Self.key, secret: Self.secret, host: "127.0.0.1", port: 9, useTLS: false,
            encryptionMasterKey: masterKey ? try .init(base64: Self.masterKeyBase64) : nil, limits: limits)
    }

    /// A server on a recording transport, signing at 1700000000 with a fixed nonce source.
    static func server(
        limits: PusherServerConfiguration.Limits = .pusher,
        masterKey: Bool = true,
        transport: RecordingTransport = RecordingTransport(),
        nonce: @escaping @Sendable () -> [UInt8] = { [UInt8](repeating: 7, count: 24) }
    ) throws -> PusherServer {
        PusherServer(
            configuration: try Self.configuration(limits: limits, masterKey: masterKey), transport: transport,
            timestamp: { 1_700_000_000 }, nonce: nonce)
    }
}
