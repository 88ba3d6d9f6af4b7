// SPDX-License-Identifier: MIT

import ArgumentParser

/// The documented exit statuses of `pusher-channels` (see `listen --help`).
enum ExitStatus {
    /// Interrupted (SIGINT, SIGTERM), `--count` events received, or standard output closed.
    static let success = ExitCode(0)
    /// The connection failed for good (closed with a code that forbids reconnecting, such as 4001
    /// for an unknown app key), or another runtime failure.
    static let connectionFailed = ExitCode(1)
    /// A usage error: an unknown or invalid option, options that do not fit together, a file that
    /// cannot be read.
    static let usage = ExitCode(2)
    /// Every channel failed (refused, invalid, not authorized) and nothing else was left to listen to.
    static let everyChannelFailed = ExitCode(3)

    /// A second SIGINT or SIGTERM ends the process at once with 128 plus the signal's number
    /// (130 for SIGINT, 143 for SIGTERM), as shells report a process killed by it.
    static func interruptedTwice(signal: Int32) -> Int32 { 128 + signal }
}
