// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherBenchmarkSupport

/// What `bench` records while events arrive: the moments (and this process's CPU time and memory)
/// when the client connected, when the first event arrived, and when the last channel got all of
/// its events. Consumers call it once per channel, never per event.
final class BenchTracker: Sendable {
    struct Mark: Sendable {
        var instant: ContinuousClock.Instant
        var usage: ResourceUsage
        var residentBytes: Int?

        static func now() -> Mark {
            Mark(instant: .now, usage: .current(), residentBytes: ResourceUsage.residentBytes())
        }
    }

    private struct State: Sendable {
        var connected: Mark?
        var firstEvent: Mark?
        var lastEvent: Mark?
        var unfinishedChannels: Int
    }

    private let state: NIOLockedValueBox<State>

    init(channels: Int) {
        self.state = NIOLockedValueBox(State(unfinishedChannels: channels))
    }

    func connected() {
        let mark = Mark.now()
        self.state.withLockedValue { $0.connected = mark }
    }

    /// A channel's first event; only the first of all is kept.
    func firstEventOfChannel() {
        self.state.withLockedValue { state in
            if state.firstEvent == nil { state.firstEvent = .now() }
        }
    }

    /// A channel got all of its events; the last one to do so marks the end.
    func channelFinished() {
        self.state.withLockedValue { state in
            state.unfinishedChannels -= 1
            if state.unfinishedChannels == 0 { state.lastEvent = .now() }
        }
    }

    var marks: (connected: Mark?, firstEvent: Mark?, lastEvent: Mark?) {
        self.state.withLockedValue { ($0.connected, $0.firstEvent, $0.lastEvent) }
    }
}
