// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pusher-channels channel NAME`: one channel's state, as the HTTP API returns it.
struct ShowChannel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "Print one channel's state (the HTTP API's JSON response)."
    )

    @OptionGroup
    var api: APIOptions

    @Argument(help: "The channel's name.")
    var name: String

    @Option(help: "Attributes: user_count (presence channels), subscription_count (comma-separated).")
    var info: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let (connection, info) = try await APICall.prepared { () throws(CLIError) in
            (try self.api.connection(environment: environment), try APICall.attributes(self.info))
        }
        try await connection.withServer { server in
            try await APICall.printing { () async throws(PusherServerError) in
                try await server.channel(self.name, info: info).responseBody
            }
        }
    }
}
