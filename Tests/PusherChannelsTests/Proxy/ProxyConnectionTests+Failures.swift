// SPDX-License-Identifier: MIT

import InMemoryTracing
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing
import Tracing

// Proxies that refuse, stall or answer something else, and SOCKS5 replies of every form.
extension ProxyConnectionTests {
    @Test(
        "a 401 answer to CONNECT is proxyFailed naming it, with httpStatus 401 (also on the connection span); retried after the backoff"
    )
    func http401() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await self.withProxiedClient(.http(refusal: 401)) { _, proxy, client, clock in
                let error = try await self.refusedTwice(proxy, client, clock)
                #expect(error.code == .proxyFailed)
                #expect(error.message.contains("HTTP 401"), "\(error.message)")
                #expect(error.httpStatus == 401)
            }
        }
        let connects = tracer.finishedSpans.filter { $0.operationName == "pusher.connect" }
        #expect(!connects.isEmpty)
        for span in connects { #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 401) }
    }

    @Test("wss:// refused by the proxy is proxyFailed naming the status (not a TLS failure)")
    func tlsRefused() async throws {
        try await self.withProxiedClient(.http(refusal: 403), tls: true) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("HTTP 403"), "\(error.message)")
            #expect(error.httpStatus == 403)
        }
    }

    @Test("an http:// proxy URL pointing at something that answers in another protocol is proxyFailed saying so")
    func notHTTP() async throws {
        // What a SOCKS5 proxy answers to a greeting it cannot read.
        try await self.withProxiedClient(.raw(answer: [5, 0xFF])) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("sent an answer that is not HTTP"), "\(error.message)")
            #expect(error.message.contains("127.0.0.1:\(proxy.port)"), "\(error.message)")
        }
    }

    @Test(
        "a proxy that never answers CONNECT: handshakeTimeout after the handshake timeout, its socket closed, and again after the backoff"
    )
    func stalledProxy() async throws {
        // The CONNECT's own deadline is on the event loop's clock (real time); the client's
        // timer on the virtual clock is never reached here.
        try await self.withProxiedClient(.stall, configure: { $0.handshakeTimeout = .milliseconds(200) }) {
            _, proxy, client, clock in
            var errors = client.errors.makeAsyncIterator()
            let first = try #require(await errors.next())
            #expect(first.code == .handshakeTimeout)
            #expect(first.message.contains("HTTP proxy 127.0.0.1:\(proxy.port) did not answer CONNECT"), "\(first)")
            try await proxy.waitUntil { $0.closed == 1 }
            #expect(proxy.snapshot.closed == 1, "the client closed the proxy's socket")
            await client.waitForEarliestDeadline(.seconds(1))
            clock.advance(by: .seconds(1))
            let second = try #require(await errors.next())
            #expect(second.code == .handshakeTimeout)
            try await proxy.waitUntil { $0.closed == 2 }
            #expect(proxy.snapshot.connections == 2)
            #expect(proxy.snapshot.closed == 2)
        }
    }

    @Test(
        "SOCKS5 replies with a domain name or an IPv6 bound address, sent one byte per write: events flow",
        arguments: [
            [3, 9] + Array("proxy.lan".utf8),
            [4] + [UInt8](repeating: 0, count: 15) + [1],
            [1, 10, 0, 0, 1],
        ] as [[UInt8]])
    func socks5ReplyForms(_ boundAddress: [UInt8]) async throws {
        try await self.withProxiedClient(.socks5(boundAddress: boundAddress, bytewise: true)) {
            server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.tunnels == 1)
        }
    }

    @Test(
        "wss:// to an IP address through a proxy is refused: its certificate would be checked against the proxy's address"
    )
    func tlsToIPAddressRefused() async throws {
        try await self.withProxiedClient(.http(), host: "127.0.0.1", tls: true) { _, proxy, client, _ in
            var errors = client.errors.makeAsyncIterator()
            let error = try #require(await errors.next())
            #expect(error.code == .tlsFailed)
            #expect(error.message.contains("cannot be verified through the HTTP proxy"), "\(error.message)")
            #expect(proxy.snapshot.connections == 0)
        }
    }
}
