// SPDX-License-Identifier: MIT
// libFuzzer target: the engine's handling of inbound frames. The input is one or more frames, one
// per line (an empty line is a binary frame), fed to an engine that is connected, signed in and
// subscribed with consumers on public, private, presence and encrypted channels; key reloads,
// authorizations and sign-ins are answered along the way. The actions must match the consumers, and the roster what they were told.

@testable import PusherCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzEngine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    var checker = ActionChecker(EngineFixture.shared)
    let lines = input.split(separator: UInt8(ascii: "\n"), maxSplits: 255, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        let frame: InboundMessage
        let parsed = Result { () throws(PusherError) in
            try PusherMessage(parsing: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line)))
        }
        if case .success(let message) = parsed {
            checker.inbound.insert([message.channel ?? "", message.event, message.data ?? ""])
        }
        if line.isEmpty {
            frame = .binary
        } else if index % 2 == 0 {
            frame = .text(String(decoding: line, as: UTF8.self))
        } else {
            switch parsed {
            case .success(let message): frame = .message(message)
            case .failure(let error): frame = .malformed(error)
            }
        }
        let now = Duration.milliseconds(index + 1)
        checker.inspect(checker.fixture.engine.received([frame], generation: checker.fixture.generation, at: now))
        // Authorizers answer one frame late, so later events are held meanwhile; every third reload fails.
        if index % 2 == 1 || index == lines.count - 1 { answer(&checker, at: now) }
    }
    checker.checkRoster()
    return 0
}

/// Answers the key reloads, channel authorizations and user authentications the engine asked for.
func answer(_ checker: inout ActionChecker, at now: Duration) {
    let reloads = checker.pendingReloads
    let requests = checker.pendingRequests
    (checker.pendingReloads, checker.pendingRequests) = ([], [])
    for (number, (channel, socketID)) in reloads.enumerated() {
        let result: Result<ChannelAuthorization, PusherError> =
            number % 3 == 2
            ? .failure(PusherError(.authorizationFailed, "refused"))
            : .success(.init(auth: "k:s", sharedSecret: FuzzKey.sharedSecret))
        checker.inspect(
            checker.fixture.engine.keyReloaded(channel: channel, socketID: socketID, result: result, at: now))
    }
    for request in requests {
        switch request {
        case .authorize(let channel, let socketID):
            let authorization = EngineFixture.authorization(of: channel.rawValue)
            checker.inspect(
                checker.fixture.engine.authorized(
                    channel: channel, socketID: socketID, result: .success(authorization)))
        case .authenticateUser(let socketID):
            checker.inspect(
                checker.fixture.engine.userAuthenticated(socketID: socketID, auth: "key:sig", userData: #"{"id":"me"}"#)
            )
        default:
            break
        }
    }
}
