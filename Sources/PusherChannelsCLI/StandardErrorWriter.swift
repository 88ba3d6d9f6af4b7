// SPDX-License-Identifier: MIT

import Dispatch
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error of every command: ``write(_:)`` never blocks. Lines go into a bounded buffer that
/// a serial queue of its own writes out with `write(2)`; a line that does not fit (standard error
/// is a pipe nobody reads, a stopped terminal) is dropped and counted, and the count is reported
/// in a line of its own once lines fit again, and by ``finish(within:)`` at exit.
///
/// Only the queue's thread can block in `write(2)`: requests, signals and the exit are never held
/// up by standard error.
final class StandardErrorWriter: Sendable {
    /// The writer of the process's standard error.
    static let shared = StandardErrorWriter(descriptor: 2)

    private struct State {
        var pending: [UInt8] = []
        var isWriting = false
        /// Lines dropped and not reported yet.
        var dropped = 0
        /// Set when writing failed for good (`EPIPE`, a closed descriptor): nothing is written again.
        var isBroken = false
    }

    private let state = NIOLockedValueBox(State())
    private let descriptor: Int32
    private let capacity: Int
    private let queue = DispatchQueue(label: "pusher-channels.stderr")

    /// - Parameter capacity: Bytes buffered while standard error is not written; a line that would
    ///   go over is dropped.
    init(descriptor: Int32, capacity: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
    }

    /// Queues `line` and a newline; returns false (and counts it) when the line was dropped.
    @discardableResult
    func write(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let (accepted, startWriting) = self.state.withLockedValue { state -> (Bool, Bool) in
            guard !state.isBroken else { return (false, false) }
            if state.dropped > 0 {
                let notice = Array((Self.droppedNotice(state.dropped) + "\n").utf8)
                guard state.pending.count + notice.count + bytes.count <= self.capacity else {
                    state.dropped += 1
                    return (false, false)
                }
                state.pending += notice
                state.dropped = 0
            }
            guard state.pending.count + bytes.count <= self.capacity else {
                state.dropped += 1
                return (false, false)
            }
            state.pending += bytes
            defer { state.isWriting = true }
            return (true, !state.isWriting)
        }
        if startWriting { self.queue.async { self.drain() } }
        return accepted
    }

    /// At exit: reports lines dropped and not reported yet, then waits at most `timeout` for what is
    /// buffered to be written; returns whether everything was.
    @discardableResult
    func finish(within timeout: Duration = .seconds(1)) -> Bool {
        let unreported = self.state.withLockedValue { state in
            defer { state.dropped = 0 }
            return state.dropped
        }
        if unreported > 0 { self.write(Self.droppedNotice(unreported)) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let idle = self.state.withLockedValue { !$0.isWriting || $0.isBroken }
            if idle { return true }
            usleep(1_000)
        }
        return false
    }

    /// The line that stands for `count` dropped lines.
    private static func droppedNotice(_ count: Int) -> String {
        "pusher-channels: \(count) line\(count == 1 ? "" : "s") of standard error dropped (standard error was not read)"
    }

    /// Writes the buffer out until it is empty; runs on `queue`.
    private func drain() {
        while true {
            let chunk = self.state.withLockedValue { state -> [UInt8]? in
                guard !state.isBroken, !state.pending.isEmpty else {
                    state.isWriting = false
                    return nil
                }
                defer { state.pending = [] }
                return state.pending
            }
            guard let chunk else { return }
            if !DescriptorWriting.writeAll(to: self.descriptor, chunk) {
                self.state.withLockedValue { state in
                    state.isBroken = true
                    state.isWriting = false
                    state.pending = []
                }
                return
            }
        }
    }

}
