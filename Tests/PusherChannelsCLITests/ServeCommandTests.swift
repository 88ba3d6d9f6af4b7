// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsServer
import PusherTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Loopback: `serve` runs as its own process, reached only through sockets.
@Suite("pusher-channels serve", .timeLimit(.minutes(1)))
struct ServeCommandTests {
    static let key = "serve-key"
    static let secret = "serve-secret"
    static let appID = "42"

    /// A running `serve`: the process, its port and the line it printed first.
    struct Started {
        let cli: CLIProcess
        let port: Int
        let line: String
    }

    /// Starts `serve --port 0` with `arguments` (the test app's id, key and secret by default).
    static func start(
        _ arguments: [String] = ["--app-id", appID, "--key", key, "--secret", secret],
        environment: [String: String] = [:]
    ) async throws -> Started {
        let cli = try CLIProcess(["serve", "--port", "0"] + arguments, environment: environment)
        var lines = cli.lines.makeAsyncIterator()
        let line = try #require(await lines.next(), "stderr: \(cli.standardError)")
        let port = try #require(try JSONValue(parsing: line)["port"]?.intValue, "line: \(line)")
        return Started(cli: cli, port: port, line: line)
    }

    /// Ends `serve` with SIGTERM; expects status 0 and the first line alone on standard output.
    static func stop(_ started: Started) async {
        started.cli.send(signal: SIGTERM)
        #expect(await started.cli.exitStatus() == 0, "stderr: \(started.cli.standardError)")
        #expect(started.cli.standardOutputLines == [started.line])
        #expect(!started.cli.standardError.contains(Self.secret))
    }

    /// The socket id of a `pusher:connection_established` frame.
    static func socketID(_ established: String?) throws -> String {
        let text = try #require(established)
        let data = try #require(try JSONValue(parsing: text)["data"]?.stringValue)
        return try #require(try JSONValue(parsing: data)["socket_id"]?.stringValue)
    }

    static func subscribe(_ channel: String, auth: String? = nil, channelData: String? = nil) -> String {
        var data: [String: JSONValue] = ["channel": .string(channel)]
        if let auth { data["auth"] = .string(auth) }
        if let channelData { data["channel_data"] = .string(channelData) }
        return JSONValue.object(["event": "pusher:subscribe", "data": .object(data)]).jsonText
    }

    static func auth(_ socketID: String, _ channel: String, channelData: String? = nil, secret: String = secret)
        -> String
    {
        PusherSignature.channelAuthorization(
            key: Self.key, secret: secret, socketID: socketID, channel: channel, channelData: channelData
        ).auth
    }

    static func publisher(port: Int, secret: String = secret) throws -> PusherServer {
        PusherServer(
            configuration: try PusherServerConfiguration(
                appID: Self.appID, key: Self.key, secret: secret, host: "127.0.0.1", port: port, useTLS: false,
                timeout: .seconds(30)))
    }

    static var path: String { "/app/\(Self.key)?protocol=7&client=raw&version=1" }

    @Test(
        "stdout: one line {host, port, app_id, key}; secret file's newline ignored; SIGTERM: close 4200, exit 0 in 5 s"
    )
    func announceAndTerminate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretFile = directory.appendingPathComponent("secret")
        try Data("file-secret\n".utf8).write(to: secretFile)
        let started = try await Self.start(["--app-id", "7", "--key", Self.key, "--secret-file", secretFile.path])
        #expect(started.line == #"{"host":"127.0.0.1","port":\#(started.port),"app_id":"7","key":"serve-key"}"#)
        #expect(started.port != 6001)
        try await RawWebSocket.withConnection(port: started.port, path: Self.path) { socket in
            let socketID = try Self.socketID(try await socket.next(event: "pusher:connection_established"))
            let auth = Self.auth(socketID, "private-a", secret: "file-secret")
            try await socket.send(Self.subscribe("private-a", auth: auth))
            #expect(try await socket.next(event: "pusher_internal:subscription_succeeded") != nil)
            let signalled = ContinuousClock.now
            started.cli.send(signal: SIGTERM)
            var frame = try await socket.next()
            while case .text = frame { frame = try await socket.next() }
            #expect(frame == .close(code: 4200))
            #expect(await started.cli.exitStatus() == 0, "stderr: \(started.cli.standardError)")
            #expect(ContinuousClock.now - signalled < .seconds(5))
        }
        #expect(started.cli.standardOutputLines == [started.line])
        #expect(!started.cli.standardError.contains("file-secret"))
    }

    @Test("defaults: app id 1, key app-key, secret app-secret (PUSHER_SECRET when set)")
    func defaults() async throws {
        for (environment, secret) in [
            (["PUSHER_SECRET": ""], "app-secret"), (["PUSHER_SECRET": "env-secret"], "env-secret"),
        ] {
            let started = try await Self.start([], environment: environment)
            #expect(started.line == #"{"host":"127.0.0.1","port":\#(started.port),"app_id":"1","key":"app-key"}"#)
            let pusher = PusherServer(
                configuration: try PusherServerConfiguration(
                    appID: "1", key: "app-key", secret: secret, host: "127.0.0.1", port: started.port, useTLS: false,
                    timeout: .seconds(30)))
            let channels = try await pusher.channels()
            #expect(channels.channels.isEmpty)
            started.cli.send(signal: SIGINT)
            #expect(await started.cli.exitStatus() == 0, "stderr: \(started.cli.standardError)")
            #expect(!started.cli.standardOutputLines.joined().contains(secret))
        }
    }

    @Test("a port in use: a line on standard error, exit 1, within 5 s, nothing on standard output")
    func portInUse() async throws {
        let first = try await Self.start()
        let second = try CLIProcess(["serve", "--port", "\(first.port)"])
        // From the process's start (spawning it, on a loaded machine, is not its time).
        let begun = ContinuousClock.now
        #expect(await second.exitStatus() == 1)
        #expect(ContinuousClock.now - begun < .seconds(5))
        #expect(second.standardError.contains("cannot listen on 127.0.0.1:\(first.port)"), "\(second.standardError)")
        #expect(second.standardOutputLines.isEmpty)
        await Self.stop(first)
    }

    @Test("--bind 0.0.0.0: the line's host is 127.0.0.1, where a local client connects, not the wildcard")
    func wildcardBind() async throws {
        let started = try await Self.start([
            "--app-id", Self.appID, "--key", Self.key, "--secret", Self.secret, "--bind", "0.0.0.0",
        ])
        #expect(
            started.line == #"{"host":"127.0.0.1","port":\#(started.port),"app_id":"42","key":"serve-key"}"#)
        let host = try #require(try JSONValue(parsing: started.line)["host"]?.stringValue)
        let pusher = PusherServer(
            configuration: try PusherServerConfiguration(
                appID: Self.appID, key: Self.key, secret: Self.secret, host: host, port: started.port, useTLS: false,
                timeout: .seconds(30)))
        #expect(try await pusher.channels().channels.isEmpty)
        await Self.stop(started)
    }

    @Test(
        "usage errors exit 2 with one line on standard error",
        arguments: [
            (["--secret", "a", "--secret-file", "/dev/null"], "not both"),
            (["--port", "70000"], "--port"),
            (["--webhook-url", "ftp://example.com/hooks"], "--webhook-url"),
            (["--key", ""], "--key"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let cli = try CLIProcess(["serve"] + arguments)
        #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
        #expect(cli.standardError.split(separator: "\n").count == 1, "stderr: \(cli.standardError)")
        #expect(cli.standardOutputLines.isEmpty)
    }

    @Test("--help states the defaults and the bounds")
    func help() async throws {
        let cli = try CLIProcess(["serve", "--help"])
        #expect(await cli.exitStatus() == 0)
        let help = cli.standardOutputLines.joined(separator: " ").split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        for text in [
            "(default: 6001)", "(default: 127.0.0.1)", "(default: 1)", "(default: app-key)", "1,000 WebSockets",
            "1 MiB", "256 KiB", "10 s", "127.0.0.1 for --bind 0.0.0.0", "16 MiB of webhooks",
        ] {
            #expect(help.contains(text), "missing \(text)")
        }
    }
}
