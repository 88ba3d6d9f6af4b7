// SPDX-License-Identifier: MIT
// libFuzzer target: the engine's handling of inbound frames. The input is one or more frames, one
// per line (an empty line is a binary frame), fed to an engine that is connected, signed in and
// subscribed with consumers on public, private, presence and encrypted channels; key reloads are
// answered along the way. The actions must match the consumers, and the roster what they were told.

@testable import PusherCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzEngine(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    var checker = ActionChecker(EngineFixture.shared)
    let lines = input.split(separator: UInt8(ascii: "\n"), maxSplits: 255, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        let frame: ClientEngine.InboundFrame
        let parsed = Result { () throws(PusherError) in try PusherMessage(parsing: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line))) }
        if case .success(let message) = parsed { checker.inbound.insert([message.channel ?? "", message.event, message.data ?? ""]) }
        if line.isEmpty {
            frame = .binary
        } else if index % 2 == 0 {
            frame = .text(String(decoding: line, as: UTF8.self))
        } else {
            switch parsed {
            case .success(let message): frame = .parsed(message)
            case .failure(let error): frame = .malformed(error)
            }
        }
        let now = Duration.milliseconds(index + 1)
        checker.inspect(checker.fixture.engine.received([frame], generation: checker.fixture.generation, at: now))
        // Reloads are answered one frame late, so later events are held meanwhile; every third fails.
        if index % 2 == 1 || index == lines.count - 1 {
            for (number, channel) in checker.pendingReloads.enumerated() {
                let result: Result<ChannelAuthorization, PusherError> =
                    number % 3 == 2 ? .failure(PusherError(.authorizationFailed, "refused")) : .success(.init(auth: "k:s", sharedSecret: FuzzKey.sharedSecret))
                checker.inspect(checker.fixture.engine.keyReloaded(channel: channel, socketID: EngineFixture.socketID, result: result))
            }
            checker.pendingReloads = []
        }
    }
    checker.checkRoster()
    return 0
}
