// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Sends requests with AsyncHTTPClient; its pool keeps connections open between calls.
struct AsyncHTTPClientTransport: PusherHTTPTransport {
    /// At most this many bytes of an answer are read.
    static let maximumResponseBytes = 16 * 1024 * 1024

    /// How long after the deadline a body still being read is given up.
    static let bodyGrace = Duration.milliseconds(250)

    let client: HTTPClient
    /// `scheme://host:port`.
    let baseURL: String

    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse {
        var httpRequest = HTTPClientRequest(url: self.baseURL + request.target)
        httpRequest.method = request.method == .post ? .POST : .GET
        httpRequest.headers = headers
        if request.method == .post {
            httpRequest.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            httpRequest.body = .bytes(ByteBuffer(bytes: request.body))
        }
        let client = self.client
        let prepared = httpRequest
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(Self.nanoseconds(of: timeout))
        do {
            // AsyncHTTPClient's deadline covers the request until the answer's head arrives (and
            // reports a refused connection as such when it passes); the race, from then on until a
            // moment after the deadline, bounds reading the body too.
            let response = try await client.execute(prepared, deadline: deadline)
            let left = Duration.nanoseconds(max(0, (deadline - NIODeadline.now()).nanoseconds)) + Self.bodyGrace
            let body = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await response.body.collect(upTo: Self.maximumResponseBytes) }
                group.addTask {
                    try await Task.sleep(for: left)
                    return nil
                }
                defer { group.cancelAll() }
                guard let body = try await group.next() ?? nil else { throw HTTPClientError.deadlineExceeded }
                return body
            }
            return PusherHTTPResponse(status: Int(response.status.code), body: String(buffer: body))
        } catch let error as PusherServerError {
            throw error
        } catch {
            throw Self.mapped(error, timeout: timeout)
        }
    }

    static func mapped(_ error: any Error, timeout: Duration) -> PusherServerError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return PusherServerError(.timeout, "no complete answer within \(timeout)")
            case .cancelled:
                return PusherServerError(.transport, "the request was cancelled")
            default:
                return PusherServerError(.transport, "the request failed: \(error)")
            }
        }
        if error is NIOTooManyBytesError {
            return PusherServerError(
                .undecodableResponse, "the answer is larger than \(Self.maximumResponseBytes) bytes")
        }
        if error is CancellationError {
            return PusherServerError(.transport, "the request was cancelled")
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return PusherServerError(.timeout, "the connection was not established within \(timeout)")
        }
        return PusherServerError(.transport, "the request failed: \(error)")
    }

    static func nanoseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? 0 : .max }
        return max(0, product &+ attoseconds / 1_000_000_000)
    }
}
