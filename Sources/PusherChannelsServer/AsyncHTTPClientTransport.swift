// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PusherCore

/// Sends requests with AsyncHTTPClient; its pool keeps connections open between calls.
package struct AsyncHTTPClientTransport: PusherHTTPTransport {
    /// At most this many bytes of an answer are read.
    static let maximumResponseBytes = 16 * 1024 * 1024

    /// The client of every ``PusherServer`` made without one: `HTTPClient.shared`'s settings on its
    /// event loop group, except that it follows no redirect (`HTTPClient.shared` follows up to 20,
    /// to other origins and from https to http, keeping a POST's body on 307 and 308: a signed
    /// trigger would be published wherever the answer points), does not retry a connection that
    /// could not be established (a refused connection fails the call at once instead of at its
    /// timeout), and makes no spans of its own (the call's span is in the request's headers).
    /// AsyncHTTPClient has no per-request redirect setting, hence a client of its own. Created on
    /// first use and never shut down, like `HTTPClient.shared`; it is not public so that nobody can
    /// shut it down under the other servers of the process.
    package static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// How long after the deadline a body still being read is given up.
    static let bodyGrace = Duration.milliseconds(250)

    let client: HTTPClient
    /// `scheme://host:port`.
    let baseURL: String

    package init(client: HTTPClient, baseURL: String) {
        self.client = client
        self.baseURL = baseURL
    }

    package func send(
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
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(timeout.clampedNanoseconds)
        guard !Task.isCancelled else { throw Self.cancelled }
        do {
            // AsyncHTTPClient's deadline covers the request until the answer's head arrives (and
            // reports a refused connection as such when it passes); the race, from then on until a
            // moment after the deadline, bounds reading the body too.
            let response = try await client.execute(prepared, deadline: deadline)
            if response.history.count > 1 {
                // An injected client followed a redirect: the request went elsewhere too.
                let status = Int(response.history[0].responseHead.status.code)
                throw PusherServerError(
                    .httpStatus,
                    "the server redirected the request (HTTP \(status)) and the HTTPClient followed it: "
                        + "give PusherServer a client made with redirectConfiguration: .disallow",
                    httpStatus: status)
            }
            let left = Duration.nanoseconds(max(0, (deadline - NIODeadline.now()).nanoseconds)) + Self.bodyGrace
            let (body, truncated) = try await withThrowingTaskGroup(of: (ByteBuffer, Bool)?.self) { group in
                group.addTask { try await Self.collect(response.body) }
                group.addTask {
                    try await Task.sleep(for: left)
                    return nil
                }
                defer { group.cancelAll() }
                guard let body = try await group.next() ?? nil else { throw HTTPClientError.deadlineExceeded }
                return body
            }
            return PusherHTTPResponse(
                status: Int(response.status.code), bytes: Array(body.readableBytesView), truncated: truncated)
        } catch let error as PusherServerError {
            throw error
        } catch {
            // Whatever a cancelled call fails with (AsyncHTTPClient's `cancelled`, a
            // `CancellationError`, a closed connection), it failed because it was cancelled.
            if Task.isCancelled { throw Self.cancelled }
            throw Self.mapped(error, timeout: timeout)
        }
    }

    /// The body's first ``maximumResponseBytes`` bytes, and whether there were more (the rest is not
    /// read: the connection is closed).
    private static func collect(_ body: HTTPClientResponse.Body) async throws -> (ByteBuffer, Bool) {
        var collected = ByteBuffer()
        for try await chunk in body {
            let room = Self.maximumResponseBytes - collected.readableBytes
            guard chunk.readableBytes <= room else {
                collected.writeImmutableBuffer(chunk.getSlice(at: chunk.readerIndex, length: room) ?? ByteBuffer())
                return (collected, true)
            }
            collected.writeImmutableBuffer(chunk)
        }
        return (collected, false)
    }

    /// The error of a call whose task was cancelled.
    static let cancelled = PusherServerError(.cancelled, "the call was cancelled")

    static func mapped(_ error: any Error, timeout: Duration) -> PusherServerError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return PusherServerError(.timeout, "no complete answer within \(timeout)")
            case .cancelled:
                return Self.cancelled
            default:
                return PusherServerError(.transport, "the request failed: \(error)")
            }
        }
        if error is CancellationError {
            return Self.cancelled
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return PusherServerError(.timeout, "the connection was not established within \(timeout)")
        }
        return PusherServerError(.transport, "the request failed: \(error)")
    }
}
