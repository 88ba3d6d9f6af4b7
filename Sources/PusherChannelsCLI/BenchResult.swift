// SPDX-License-Identifier: MIT

import PusherBenchmarkSupport

/// The figures `bench` prints, one `name=value` per line.
struct BenchResult {
    var events: Int
    var channels: Int
    /// From the client's start to `connected`.
    var connect: Duration
    /// From the first subscription to the first event.
    var subscribe: Duration
    /// From the first event to the last.
    var receive: Duration
    /// This process's CPU time from the first event to the last.
    var cpuSeconds: Double
    /// This process's CPU time from the client's start to the last event.
    var processCPUSeconds: Double
    var peakResidentBytes: Int
    /// Resident memory added from `connected` to the first event, per channel.
    var residentBytesPerChannel: Double?
    /// The load server child's CPU time, when it ran in a child process.
    var serverCPUSeconds: Double?

    init(events: Int, channels: Int, tracker: BenchTracker, started: BenchTracker.Mark) throws {
        let marks = tracker.marks
        guard let connected = marks.connected, let first = marks.firstEvent, let last = marks.lastEvent else {
            throw CLIError("the run ended before every event arrived")
        }
        self.events = events
        self.channels = channels
        self.connect = connected.instant - started.instant
        self.subscribe = first.instant - connected.instant
        self.receive = last.instant - first.instant
        self.cpuSeconds = last.usage.cpuSeconds - first.usage.cpuSeconds
        self.processCPUSeconds = last.usage.cpuSeconds - started.usage.cpuSeconds
        self.peakResidentBytes = last.usage.peakResidentBytes
        if channels > 1, let before = connected.residentBytes, let after = first.residentBytes {
            self.residentBytesPerChannel = Double(after - before) / Double(channels)
        }
    }

    var lines: [String] {
        let seconds = Self.seconds(self.receive)
        var lines = [
            "events=\(self.events)",
            "seconds=\(Self.format(seconds, 3))",
            "events_per_second=\(seconds > 0 ? Self.format(Double(self.events) / seconds, 0) : "inf")",
            "cpu_us_per_event=\(Self.format(self.cpuSeconds * 1e6 / Double(self.events), 2))",
            "peak_rss_mib=\(Self.format(Double(self.peakResidentBytes) / 1_048_576, 1))",
            "connect_seconds=\(Self.format(Self.seconds(self.connect), 3))",
            "subscribe_seconds=\(Self.format(Self.seconds(self.subscribe), 3))",
            "process_cpu_seconds=\(Self.format(self.processCPUSeconds, 3))",
        ]
        if let perChannel = self.residentBytesPerChannel {
            lines.append("rss_bytes_per_channel=\(Self.format(perChannel, 0))")
        }
        if let server = self.serverCPUSeconds {
            lines.append("server_cpu_us_per_event=\(Self.format(server * 1e6 / Double(self.events), 2))")
        }
        return lines
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return Double(whole) + Double(fraction) / 1e18
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        if decimals == 0 { return String(Int(value.rounded())) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let fraction = String(magnitude % Int(scale))
        return sign + String(magnitude / Int(scale)) + "." + String(repeating: "0", count: decimals - fraction.count)
            + fraction
    }
}
