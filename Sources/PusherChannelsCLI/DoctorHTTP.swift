// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The HTTP requests of `doctor` (the API, the auth endpoints, the webhook endpoint): each within
/// ``DoctorDeadline/request``, with `--ca-file`'s trust, through the proxy that applies to its host
/// (on the package's own proxied path, as the client's auth requests go), no redirect followed.
/// Every answer is returned whatever its status.
struct DoctorHTTP: Sendable {
    /// The most of an answer read.
    static let maximumAnswerBytes = 64 * 1024

    let client: HTTPClient
    let settings: DoctorSettings

    /// Runs `body` with a client that is shut down when it returns.
    static func withClient<Result: Sendable>(
        settings: DoctorSettings, _ body: (DoctorHTTP) async throws -> Result
    ) async throws -> Result {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(DoctorHTTP(client: client, settings: settings))
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Sends one request; the answer, or why there is none, in words that name the host.
    func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async -> Result<DoctorHTTPAnswer, DoctorHTTP.Failure> {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        request.tlsConfiguration = self.settings.tlsConfiguration
        let sent = request
        let host = URLComponents(string: url)?.host ?? url
        let proxy: PusherProxy?
        do {
            proxy = try PusherClientConfiguration.proxy(self.settings.proxy, forHost: host)
        } catch {
            return .failure(.failed("the proxy cannot be used: \(error.message)"))
        }
        let outcome = await DoctorDeadline.within { () async -> Result<DoctorHTTPAnswer, DoctorHTTP.Failure> in
            do {
                if let proxy {
                    let (head, body) = try await ProxiedProbe.send(
                        sent, through: proxy, tlsConfiguration: sent.tlsConfiguration,
                        maximumAnswerBytes: Self.maximumAnswerBytes)
                    return .success(
                        DoctorHTTPAnswer(
                            status: Int(head.status.code), headers: head.headers, body: String(buffer: body),
                            settings: self.settings))
                }
                let response = try await self.client.execute(sent, deadline: .now() + .seconds(10))
                let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
                return .success(
                    DoctorHTTPAnswer(
                        status: Int(response.status.code), headers: response.headers, body: String(buffer: body),
                        settings: self.settings))
            } catch {
                return .failure(.failed(Self.describe(error, host: host, proxy: proxy)))
            }
        }
        switch outcome {
        case .finished(let result): return result
        case .timedOut: return .failure(.timedOut)
        }
    }

    /// Why a request failed, in a few words: TLS failures as the client words them, refused
    /// connections, names that do not resolve, time-outs.
    static func describe(_ error: any Error, host: String, proxy: PusherProxy?) -> String {
        if let tls = PusherError.tlsFailure(error, host: host) { return DoctorAdvice.tls(tls.message) }
        if let error = error as? PusherError { return error.message }
        if error is NIOTooManyBytesError { return "the answer is larger than \(Self.maximumAnswerBytes / 1024) KiB" }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return "no answer within 10 s"
            case .remoteConnectionClosed:
                return "the server closed the connection without answering"
            default:
                break
            }
        }
        let text = "\(error)"
        let via = proxy.map { " (through the proxy \($0))" } ?? ""
        if text.contains("connection refused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return "connection refused by \(host)\(via): nothing listens on that port"
        }
        if text.contains("resolve") || text.contains("NXDOMAIN") || text.contains("dnsA") {
            return "the name \(host) does not resolve\(via)"
        }
        return "\(text)\(via)"
    }
}

extension DoctorHTTP {
    /// Why ``DoctorHTTP/send(_:_:headers:body:)`` has no answer.
    enum Failure: Error, Sendable, CustomStringConvertible {
        /// No answer within ``DoctorDeadline/request``.
        case timedOut
        /// The request failed; the reason in words.
        case failed(String)

        var description: String {
            switch self {
            case .timedOut: "no answer within 10 s"
            case .failed(let reason): reason
            }
        }
    }
}
