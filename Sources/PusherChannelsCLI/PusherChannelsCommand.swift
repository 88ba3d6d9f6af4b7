// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

@main
struct PusherChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pusher-channels",
        abstract: "A command-line client for Pusher Channels and every server that speaks its protocol.",
        version: PusherClient.version,
        subcommands: [Listen.self, Bench.self]
    )

    /// Runs the command; usage errors exit with status 2 (``ExitStatus/usage``), not
    /// ArgumentParser's 64.
    static func main() async {
        do {
            var command = try self.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard self.exitCode(for: error).rawValue == ExitCode.validationFailure.rawValue else {
                self.exit(withError: error)
            }
            Output.usage(self.fullMessage(for: error))
            self.exit(withError: ExitStatus.usage)
        }
    }
}
