// SPDX-License-Identifier: MIT

import ArgumentParser
import NIOHTTP1
import PusherChannelsServer

/// `trigger --batch`: standard input streamed in batches of at most ``size`` events, in input
/// order, one response line per batch on standard output.
///
/// Lines are read, checked and sent as they come: a batch goes out as soon as its 10th event was
/// read (the last one at the end of input), so an endless producer sees its events published
/// while it writes, and what is held is one batch plus a bounded read-ahead
/// (``StandardInputLines``). Every batch is first checked by the library itself, through a
/// transport that sends nothing (names, socket ids, limits, encryption): a bad line stops the
/// command before its batch is sent, and standard error then says which lines were sent. A batch
/// the server answered with any 2xx is published, whatever its body.
struct TriggerBatch {
    /// Pusher's limit of events per batch request on shared clusters.
    static let size = 10

    let connection: APIConnection
    let info: [ChannelAttribute]

    /// What went out so far.
    private struct Progress {
        var batches = 0
        var events = 0
        /// The line of the last event sent.
        var lastLine = 0
    }

    /// Reads `lines` to their end, sending every batch as soon as it is complete.
    func send(_ lines: some AsyncSequence<LineSplitter.Line, Never>) async throws {
        try await self.connection.withServer { server in
            let check = PusherServer(configuration: self.connection.configuration, transport: NoRequestTransport())
            var progress = Progress()
            var batch: [(event: BatchEvent, line: Int)] = []
            var number = 0
            for await line in lines {
                number += 1
                let event: BatchEvent?
                do throws(CLIError) {
                    event = try Self.event(line, number: number, info: self.info)
                } catch {
                    Output.error("error: \(error.description)")
                    Self.report(progress)
                    throw ExitStatus.usage
                }
                guard let event else { continue }
                batch.append((event, number))
                guard batch.count == Self.size else { continue }
                try await self.send(batch, server: server, check: check, progress: &progress)
                batch = []
            }
            if !batch.isEmpty { try await self.send(batch, server: server, check: check, progress: &progress) }
            guard progress.events > 0 else {
                Output.error("error: no events on standard input")
                throw ExitStatus.usage
            }
        }
    }

    /// Checks one batch, then sends it and prints the server's answer.
    private func send(
        _ batch: [(event: BatchEvent, line: Int)], server: PusherServer, check: PusherServer, progress: inout Progress
    ) async throws {
        let events = batch.map(\.event)
        let lines = "\(batch[0].line) to \(batch[batch.count - 1].line)"
        do {
            _ = try await check.triggerBatch(events)
        } catch {
            Output.error("error: the events of lines \(lines): \(error.message)")
            Self.report(progress)
            throw ExitStatus.usage
        }
        do throws(PusherServerError) {
            // Returning (any 2xx) is published, whatever the answer's body held.
            let result = try await server.triggerBatch(events)
            Output.line(APICall.oneLine(result.responseBody))
        } catch {
            // `triggerBatch` never throws after a 2xx (`{"batch": {}}` of Laravel Reverb, a
            // proxy's `OK` are published answers), so this batch was not published.
            let status = APICall.report(error)
            Self.report(progress)
            throw status
        }
        progress.batches += 1
        progress.events += batch.count
        progress.lastLine = batch[batch.count - 1].line
    }

    /// Says on standard error what was sent before the command stopped.
    private static func report(_ progress: Progress) {
        guard progress.events > 0 else {
            Output.error("error: nothing was sent")
            return
        }
        Output.error(
            "error: sent \(progress.events) event\(progress.events == 1 ? "" : "s") in \(progress.batches) batch\(progress.batches == 1 ? "" : "es"), those of lines 1 to \(progress.lastLine); nothing after line \(progress.lastLine)"
        )
    }

    /// The event of one line of standard input, nil for a blank one.
    private static func event(
        _ line: LineSplitter.Line, number: Int, info: [ChannelAttribute]
    ) throws(CLIError) -> BatchEvent? {
        switch line {
        case .text(let text):
            return try BatchLine.event(text, number: number, info: info)
        case .tooLong:
            throw CLIError("line \(number) of standard input is longer than \(StandardInput.maximumBytes) bytes")
        case .notUTF8:
            throw CLIError("line \(number) of standard input is not UTF-8 text")
        }
    }
}

/// A transport that sends nothing and answers every request with 200 and `{}`: the library's own
/// checks of a call, without a request.
private struct NoRequestTransport: PusherHTTPTransport {
    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse {
        PusherHTTPResponse(status: 200, body: "{}")
    }
}
