// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pusher-channels channels`: the app's occupied channels, as the HTTP API returns them.
struct ListChannels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Print the occupied channels (the HTTP API's JSON response)."
    )

    @OptionGroup
    var api: APIOptions

    @Option(help: "Only channels whose name starts with this.")
    var prefix: String?

    @Option(help: "Attributes per channel: user_count (presence channels only; with --prefix presence-).")
    var info: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let (connection, info) = try await APICall.prepared { () throws(CLIError) in
            (try self.api.connection(environment: environment), try APICall.attributes(self.info))
        }
        try await connection.withServer { server in
            try await APICall.printing { () async throws(PusherServerError) in
                try await server.channels(prefix: self.prefix, info: info).responseBody
            }
        }
    }
}
