// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import PusherChannels
import Testing

// `trigger --batch` streams standard input.
extension CLITests {
    static func batchLine(_ index: Int) -> String {
        #"{"channel":"c\#(index)","event":"e","data":"\#(index)"}"#
    }

    /// The channels of each batch request `server` received.
    static func batchChannels(_ server: RecordingAPIServer) throws -> [[String]] {
        try server.requests.map { request in
            guard case .array(let events)? = try JSONValue(parsing: request.body)["batch"] else { return [] }
            return events.map { $0["channel"]?.stringValue ?? "?" }
        }
    }

    @Test("trigger --batch sends each batch of 10 as soon as it is read, while standard input stays open")
    func triggerBatchStreams() async throws {
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { server in
            let cli = try CLIProcess(self.apiArguments("trigger", server) + ["--batch"])
            for index in 0..<10 { cli.send(line: Self.batchLine(index)) }
            // Standard input is still open: the first batch goes out all the same.
            var lines = cli.lines.makeAsyncIterator()
            #expect(await lines.next() == "{}")
            #expect(try Self.batchChannels(server) == [(0..<10).map { "c\($0)" }])
            for index in 10..<13 { cli.send(line: Self.batchLine(index)) }
            try cli.stdin.fileHandleForWriting.close()
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(try Self.batchChannels(server) == [(0..<10).map { "c\($0)" }, (10..<13).map { "c\($0)" }])
            #expect(cli.standardOutputLines == ["{}", "{}"])
        }
    }

    @Test("trigger --batch: a bad line stops before its batch is sent; standard error says which lines were sent")
    func triggerBatchStopsAtBadLine() async throws {
        let inputs: [(String, String)] = [
            (#"{"channel":1}"#, "line 14 of standard input needs \"channel\""),
            (#"{"channel":"bad channel","event":"e","data":"x"}"#, "the events of lines 12 to 16"),
        ]
        for (bad, message) in inputs {
            try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { server in
                var lines = (0..<13).map(Self.batchLine)
                lines.insert("", at: 4)
                lines.insert(bad, at: 13)
                lines.append(Self.batchLine(13))
                let cli = try await self.run(
                    self.apiArguments("trigger", server) + ["--batch"], input: lines.joined(separator: "\n") + "\n")
                #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
                #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
                let sent = "sent 10 events in 1 batch, those of lines 1 to 11; nothing after line 11"
                #expect(cli.standardError.contains(sent), "stderr: \(cli.standardError)")
                #expect(try Self.batchChannels(server) == [(0..<10).map { "c\($0)" }])
                #expect(cli.standardOutputLines == ["{}"])
            }
        }
    }

    @Test(
        "trigger --batch counts any 2xx as published: Pusher's, soketi's, Reverb's and pusher-fake's answers, a proxy's OK",
        arguments: [
            #"{"batch":[{},{}]}"#, "{}", #"{"batch": {}}"#, "OK", #"{"batch":[{"subscription_count":1},{}]}"#,
        ])
    func triggerBatchAnswers(answer: String) async throws {
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { _ in (200, answer) }
        ) { server in
            let input = (0..<12).map(Self.batchLine).joined(separator: "\n") + "\n"
            let cli = try await self.run(self.apiArguments("trigger", server) + ["--batch"], input: input)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == [answer, answer])
            #expect(server.requests.count == 2)
        }
    }
}
