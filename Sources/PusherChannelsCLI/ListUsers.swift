// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pusher-channels users NAME`: the users of a presence channel, as the HTTP API returns them.
struct ListUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Print the users of a presence channel (the HTTP API's JSON response)."
    )

    @OptionGroup
    var api: APIOptions

    @Argument(help: "The presence channel's name.")
    var name: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let connection = try await APICall.prepared { () throws(CLIError) in
            try self.api.connection(environment: environment)
        }
        try await connection.withServer { server in
            try await APICall.printing { () async throws(PusherServerError) in
                try await server.users(inPresenceChannel: self.name).responseBody
            }
        }
    }
}
