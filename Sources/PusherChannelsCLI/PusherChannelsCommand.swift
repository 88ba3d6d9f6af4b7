// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

@main
struct PusherChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pusher-channels",
        abstract: "A command-line client for Pusher Channels and every server that speaks its protocol.",
        version: PusherClient.version,
        subcommands: [
            Listen.self, Bench.self, Trigger.self, ListChannels.self, ShowChannel.self, ListUsers.self, Webhooks.self,
            Serve.self, Doctor.self,
        ]
    )

    /// Runs the command; usage errors exit with status 2 (``ExitStatus/usage``), not
    /// ArgumentParser's 64.
    static func main() async {
        // Standard error is written by a queue of its own; what it holds goes out before the exit
        // (for at most a second: nobody may be reading it).
        defer { StandardErrorWriter.shared.finish() }
        do {
            var command = try self.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard self.exitCode(for: error).rawValue == ExitCode.validationFailure.rawValue else {
                StandardErrorWriter.shared.finish()
                self.exit(withError: error)
            }
            if Self.printsOneLineUsageErrors {
                let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
                Output.error("error: \(message)")
            } else {
                Output.usage(self.fullMessage(for: error))
            }
            StandardErrorWriter.shared.finish()
            self.exit(withError: ExitStatus.usage)
        }
    }

    /// The HTTP API commands and `webhooks` report a usage error on one line of standard error
    /// (their documented contract); `listen` and `bench` add ArgumentParser's usage lines.
    private static var printsOneLineUsageErrors: Bool {
        let oneLine: Set<String> = ["trigger", "channels", "channel", "users", "webhooks", "serve", "doctor"]
        return CommandLine.arguments.dropFirst().first.map { oneLine.contains($0) } ?? false
    }
}
