// SPDX-License-Identifier: MIT

import ArgumentParser
import NIOHTTP1
import PusherChannelsServer

/// `trigger --batch`: events sent in batches of at most ``size``, in input order, one response line
/// per batch on standard output.
///
/// Every batch is first checked by the library itself, through a transport that sends nothing
/// (names, socket ids, limits, encryption), so that a usage error anywhere in the input stops the
/// command before the first request: a retried batch could publish its events twice.
struct TriggerBatch {
    /// Pusher's limit of events per batch request on shared clusters.
    static let size = 10

    let connection: APIConnection

    func send(_ events: [BatchEvent]) async throws {
        guard !events.isEmpty else {
            Output.error("error: no events on standard input")
            throw ExitStatus.usage
        }
        let batches = stride(from: 0, to: events.count, by: Self.size).map {
            Array(events[$0..<min($0 + Self.size, events.count)])
        }
        let check = PusherServer(configuration: self.connection.configuration, transport: NoRequestTransport())
        for (index, batch) in batches.enumerated() {
            do {
                _ = try await check.triggerBatch(batch)
            } catch {
                let first = index * Self.size + 1
                Output.error("error: events \(first) to \(first + batch.count - 1): \(error.message)")
                throw ExitStatus.usage
            }
        }
        try await self.connection.withServer { server in
            for (index, batch) in batches.enumerated() {
                do throws(PusherServerError) {
                    let result = try await server.triggerBatch(batch)
                    Output.line(APICall.oneLine(result.responseBody))
                } catch {
                    let status = APICall.report(error)
                    if index > 0 { Output.error("error: batches 1 to \(index) of \(batches.count) were sent") }
                    throw status
                }
            }
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
