// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

/// `listen --when-full`: what a consumer's full buffer does (see `BufferingPolicy`).
enum WhenFullOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    case pauseReading = "pause-reading"
    case fail
    case dropOldest = "drop-oldest"
    case dropNewest = "drop-newest"

    var policy: BufferingPolicy.WhenFull {
        switch self {
        case .pauseReading: .pauseReading
        case .fail: .fail
        case .dropOldest: .dropOldest
        case .dropNewest: .dropNewest
        }
    }
}
