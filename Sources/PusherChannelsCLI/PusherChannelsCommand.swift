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
}
