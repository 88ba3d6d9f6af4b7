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

    @OptionGroup
    var secret: SecretOptions

    @OptionGroup
    var masterKey: MasterKeyOptions

    func validate() throws {
        guard (0...65_535).contains(self.port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard !self.key.isEmpty else { throw ValidationError("--key is empty.") }
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
        let listener: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        do {
            listener = try await WebhookHTTPServer.bind(host: self.bind, port: self.port)
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
        let server = WebhookHTTPServer(receiver: receiver, output: output)
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
    }
}
