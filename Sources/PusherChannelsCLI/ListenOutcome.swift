// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

/// How a `listen` run ended, and its exit status.
enum ListenOutcome: Sendable {
    /// A part of the run finished without ending it (its sequence ended, it was cancelled).
    case ended
    /// `--count` events arrived.
    case countReached
    /// SIGINT or SIGTERM.
    case interrupted
    /// The reader of standard output went away (`listen | head -n 1`).
    case outputClosed
    /// The connection failed for good.
    case connectionFailed(PusherError)
    /// Every channel failed, and nothing else was left to listen to.
    case everyChannelFailed

    var exitCode: ExitCode {
        switch self {
        case .ended, .countReached, .interrupted, .outputClosed: ExitStatus.success
        case .connectionFailed: ExitStatus.connectionFailed
        case .everyChannelFailed: ExitStatus.everyChannelFailed
        }
    }
}
