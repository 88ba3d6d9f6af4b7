// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and memory of this process (or of its finished children), for measurements such as
/// `pusher-channels bench` and the package's benchmarks.
public struct ResourceUsage: Sendable, Hashable {
    /// User CPU time, in seconds.
    public var userSeconds: Double
    /// System CPU time, in seconds.
    public var systemSeconds: Double
    /// The peak resident set size so far, in bytes (`ru_maxrss`).
    public var peakResidentBytes: Int

    /// User plus system CPU time, in seconds.
    public var cpuSeconds: Double { self.userSeconds + self.systemSeconds }

    /// This process, now (`getrusage(RUSAGE_SELF)`).
    public static func current() -> ResourceUsage {
        Self.read(children: false)
    }

    /// This process's children that have finished and been waited for (`getrusage(RUSAGE_CHILDREN)`).
    public static func children() -> ResourceUsage {
        Self.read(children: true)
    }

    /// The resident set size now, in bytes; nil where it cannot be read (it is read from
    /// `/proc/self/statm`, on Linux).
    public static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func read(children: Bool) -> ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
        // Glibc imports the constants as an enum whose raw value getrusage takes.
        _ = getrusage(Int32((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        #else
        _ = getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) * 1024  // kibibytes on Linux
        #endif
        return ResourceUsage(
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            peakResidentBytes: peak
        )
    }
}
