// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `listen`'s client events from standard input.
extension CLITests {
    @Test("listen reads client-event lines only as fast as the client sends them: the producer waits, no line is lost")
    func listenClientEventBackpressure() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--secret", Self.secret, "--channel", "private-room", "--quiet"])
            await server.waitForSubscribers(of: "private-room")
            // A producer far faster than the client-event rate limit (10 a second), for 3 seconds.
            let descriptor = cli.stdin.fileHandleForWriting.fileDescriptor
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let padding = String(repeating: "p", count: 1000)
            var (written, index, line) = (0, 0, [UInt8]())
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(3))
            while clock.now < deadline && written < 8 << 20 {
                if line.isEmpty {
                    line = Array(#"private-room client-n {"i":\#(index),"p":"\#(padding)"}"#.utf8) + [10]
                    index += 1
                }
                let count = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    written += count
                    line.removeFirst(count)
                } else {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            // Without waiting, the reader takes everything (8 MiB) and the client refuses what its
            // queue of 100 cannot hold.
            #expect(written < 2 << 20, "standard input took \(written) bytes")
            let received = await server.waitForMessages(named: "client-n", count: 25)
            let numbers = try received.map { try $0.message?.parsedData()["i"]?.jsonText }
            #expect(Array(numbers.prefix(25)) == (0..<25).map { Optional("\($0)") })
            #expect(!cli.standardError.contains("client event:"), "stderr: \(cli.standardError)")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }
}
