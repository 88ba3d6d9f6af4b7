// SPDX-License-Identifier: MIT

import ArgumentParser
import NIOCore
import NIOHTTP1
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `pusher-channels webhooks`: an HTTP server that verifies Pusher's webhooks and prints their
/// events as JSON lines.
struct Webhooks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Receive webhooks: verify their signature and print each event as a JSON line.",
        discussion: """
            An HTTP server. A POST (any path) whose X-Pusher-Key is --key and whose \
            X-Pusher-Signature is the HMAC-SHA256 of its body with the app secret gets 200, and each \
            event in it is printed on standard output as one JSON line: the event object as sent, \
            plus "time_ms" (client events of private-encrypted channels with their data decrypted \
            when a master key is given). An invalid signature or an unknown key gets 401, a line on \
            standard error, and nothing on standard output; a body that is not a webhook gets 400. \
            Freshness (time_ms) is not checked: servers disagree on its unit.

            Bounded for the internet: a request's head and body must arrive within \
            --request-timeout (10 s; an idle keep-alive connection is closed after it too); at most \
            --max-connections (64) are open, a connection over it is closed at once; bodies not \
            verified yet hold at most --max-unverified-bytes (8 MiB) in all, a request that would \
            go over gets 503; a body over 1 MiB gets 413. Rejected requests are logged on standard \
            error, cut to 200 characters, at most 10 lines a second, then one "N more rejected \
            requests" line. Standard error never blocks: when nobody reads it, lines are dropped \
            and counted.

            The address it listens on is printed on standard error ("--port 0" picks a free port). \
            SIGINT or SIGTERM ends it with status 0; a usage error exits with 2.

            Example:
              PUSHER_SECRET=SECRET pusher-channels webhooks --port 8080 --key KEY
            """
    )

    @Option(help: "The port to listen on (0: a free one, printed on standard error).")
    var port: Int

    @Option(help: "The address to listen on.")
    var bind = "127.0.0.1"

    @Option(help: "The application key (X-Pusher-Key of the webhooks).")
    var key: String

    @Option(help: "Seconds a request's head and body may take to arrive.")
    var requestTimeout: Double = 10

    @Option(help: "Connections open at once; one over it is closed at once.")
    var maxConnections = 64

    @Option(help: "Bytes of bodies not verified yet, over every connection; a request over it gets 503.")
    var maxUnverifiedBytes = 8 << 20

    @OptionGroup
    var secret: SecretOptions

    @OptionGroup
    var masterKey: MasterKeyOptions

    func validate() throws {
        guard (0...65_535).contains(self.port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard !self.key.isEmpty else { throw ValidationError("--key is empty.") }
        guard self.requestTimeout > 0 && self.requestTimeout <= 86_400 else {
            throw ValidationError("--request-timeout must be over 0 and at most 86400 seconds.")
        }
        guard self.maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1.") }
        guard self.maxUnverifiedBytes > 0 else { throw ValidationError("--max-unverified-bytes must be at least 1.") }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let receiver: WebhookReceiver
        do throws(CLIError) {
            let environment = ProcessInfo.processInfo.environment
            let secret = try self.secret.read(environment: environment)
            let masterKey = try self.masterKey.read(environment: environment)
            receiver = WebhookReceiver(
                verifier: WebhookVerifier(
                    credentials: [WebhookCredential(key: self.key, secret: secret)], masterKey: masterKey))
        } catch {
            Output.error("error: \(error.description)")
            throw ExitStatus.usage
        }
        var limits = WebhookLimits()
        limits.requestTimeout = .milliseconds(Int64((self.requestTimeout * 1000).rounded(.up)))
        limits.maximumConnections = self.maxConnections
        limits.unverifiedBytes = self.maxUnverifiedBytes
        let listener: NIOAsyncChannel<WebhookHTTPServer.Connection, Never>
        do {
            listener = try await WebhookHTTPServer.bind(
                host: self.bind, port: self.port, requestTimeout: limits.requestTimeout)
        } catch {
            Output.error("error: cannot listen on \(self.bind):\(self.port): \(error)")
            throw ExitStatus.connectionFailed
        }
        // Signals are watched before the address is printed: whoever waits for it may signal at once.
        let signals = await SignalWatcher.start()
        let output = OutputWriter()
        output.watchForHangUp()
        if !ConnectionSecurity.isLoopback(self.bind) {
            Output.error("warning: --bind \(self.bind): webhooks arrive over plain HTTP; put a TLS proxy in front")
        }
        Output.error("webhooks: listening on \(self.bind):\(listener.channel.localAddress?.port ?? self.port)")
        let log = RejectionLog()
        let server = WebhookHTTPServer(receiver: receiver, output: output, limits: limits, log: log)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await server.serve(listener) }
            group.addTask { _ = await signals.first() }
            group.addTask { await output.closed() }
            // The first of: a signal, standard output closed, the server failed.
            await group.next()
            listener.channel.close(promise: nil)
            group.cancelAll()
        }
        await output.drained()
        log.finish()
    }
}
