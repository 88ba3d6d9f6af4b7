// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pusher-channels trigger`: publishes an event through the HTTP API, or with `--batch` the
/// events of NDJSON lines on standard input.
struct Trigger: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Publish an event to channels through the HTTP API (or, with --batch, events from standard input).",
        discussion: TriggerHelp.discussion
    )

    @OptionGroup
    var api: APIOptions

    @Option(name: .customLong("channel"), help: "A channel to publish on (repeatable).")
    var channels: [String] = []

    @Option(help: "The event name.")
    var event: String?

    @Option(help: "The event's data, sent as it is ('-' reads standard input).")
    var data: String?

    @Flag(help: "Read events from standard input, one JSON object a line, and send them in batches of 10.")
    var batch = false

    @Option(name: .customLong("socket-id"), help: "Leave out the connection with this socket id.")
    var socketID: String?

    @Option(help: "Attributes to return per channel: subscription_count, user_count (comma-separated).")
    var info: String?

    @OptionGroup
    var masterKey: MasterKeyOptions

    @Flag(
        name: .customLong("no-limits"),
        help: "Do not check Pusher's limits (100 channels, 10 events a batch, 10,240 bytes), for self-hosted servers.")
    var noLimits = false

    func validate() throws {
        if self.batch {
            guard self.channels.isEmpty && self.event == nil && self.data == nil && self.socketID == nil else {
                throw ValidationError(
                    "--batch reads channels, events, data and socket ids from standard input: drop --channel, --event, --data and --socket-id."
                )
            }
        } else {
            guard !self.channels.isEmpty else { throw ValidationError("Give at least one --channel (or --batch).") }
            guard self.event != nil else { throw ValidationError("Give --event.") }
            guard self.data != nil else { throw ValidationError("Give --data (or --data - to read standard input).") }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let (connection, info) = try await APICall.prepared { () throws(CLIError) in
            let masterKey = try self.masterKey.read(environment: environment)
            return (
                try self.api.connection(
                    environment: environment, masterKey: masterKey, limits: self.noLimits ? .none : .pusher),
                try APICall.attributes(self.info)
            )
        }
        if self.batch {
            let lines = StandardInput.lines(maximumLineBytes: StandardInput.maximumBytes)
            try await TriggerBatch(connection: connection, info: info).send(lines)
            return
        }
        let data: String
        if self.data == "-" {
            data = try await APICall.prepared { () async throws(CLIError) in try await StandardInput.text() }
        } else {
            data = self.data ?? ""
        }
        try await connection.withServer { server in
            try await APICall.printing { () async throws(PusherServerError) in
                try await server.trigger(
                    channels: self.channels, event: self.event ?? "", data: data, socketID: self.socketID, info: info
                ).responseBody
            }
        }
    }
}
