// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the `pusher-channels` executable (built next to the test bundle: the test target depends on
/// it). Standard output and standard error are read on threads of their own (never blocking the
/// cooperative pool): output line by line as ``lines``, errors collected as ``standardError``. The
/// process is killed if the test is cancelled.
///
/// Started with `posix_spawn(3)` (``ChildSpawn``, not Foundation's `Process`) and waited for with
/// `waitpid(2)`.
final class CLIProcess: Sendable {
    /// The write end of the child's standard input (as `Pipe.fileHandleForWriting`).
    struct StandardInput: Sendable {
        let fileHandleForWriting: FileHandle
    }

    /// The child's process id.
    let processIdentifier: pid_t
    let stdin: StandardInput
    /// Standard output, one element per line, as the process prints it; finishes at end of file.
    let lines: AsyncStream<String>
    private let exited: AsyncStream<Void>
    private let status = NIOLockedValueBox<Int32?>(nil)
    private let endOfOutput: AsyncStream<Void>
    private let endOfErrors: AsyncStream<Void>
    private let printed = NIOLockedValueBox<[String]>([])
    private let errors = NIOLockedValueBox(ErrorText())
    private let changes = NIOLockedValueBox(Changes())
    /// Which of standard output and standard error reached end of file.
    private let ended = NIOLockedValueBox<Set<String>>([])
    /// ``diagnosis`` as it was when a wait for the process was cancelled (before it was killed).
    private let diagnosisAtCancellation = NIOLockedValueBox<String?>(nil)

    /// Counts what arrived on standard output and standard error, for ``waitForChange(after:)``.
    private struct Changes {
        var version = 0
        var waiters: [CheckedContinuation<Int, Never>] = []

        /// Counts a change; returns the new version and the waiters to resume with it.
        mutating func bump() -> (Int, [CheckedContinuation<Int, Never>]) {
            self.version += 1
            defer { self.waiters = [] }
            return (self.version, self.waiters)
        }
    }

    private static func notify(_ changes: NIOLockedValueBox<Changes>) {
        let (version, waiters) = changes.withLockedValue { $0.bump() }
        for waiter in waiters { waiter.resume(returning: version) }
    }

    private struct ErrorText {
        var text = ""
        var waiters: [(needle: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    static var executable: URL {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("pusher-channels")
    }

    /// - Parameters:
    ///   - environment: Variables added to this process's environment for the child.
    ///   - readsOutput: Whether standard output is read from the start; without, it is read only
    ///     after ``startReadingOutput()`` (the pipe fills and the process's writes block).
    ///   - fillsOutputPipe: Whether the output pipe is filled before the process starts (with lines
    ///     of `#`, read first), so that its first write blocks until the output is read.
    ///   - readsErrors: Whether standard error is read; without, its pipe is filled before the
    ///     process starts and never read (but kept open until this object goes away), so that every
    ///     write to it would block, and ``standardError`` stays empty.
    init(
        _ arguments: [String], environment: [String: String] = [:], readsOutput: Bool = true,
        fillsOutputPipe: Bool = false, readsErrors: Bool = true
    ) throws {
        let (stdinRead, stdinWrite) = try ChildSpawn.makePipe()
        self.stdin = StandardInput(fileHandleForWriting: FileHandle(fileDescriptor: stdinWrite, closeOnDealloc: true))

        let (stdoutRead, stdoutWrite) = try ChildSpawn.makePipe()
        let (stderrRead, stderrWrite) = try ChildSpawn.makePipe()
        if fillsOutputPipe { Self.fill(stdoutWrite) }
        if !readsErrors { Self.fill(stderrWrite) }
        self.stdoutDescriptor = stdoutRead
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (endOfOutput, endSink) = AsyncStream.makeStream(of: Void.self)
        (self.lines, self.endOfOutput) = (lines, endOfOutput)
        self.lineSink = lineSink
        self.endSink = endSink

        let (endOfErrors, errorsEndSink) = AsyncStream.makeStream(of: Void.self)
        self.endOfErrors = endOfErrors
        let (errors, changes, ended) = (self.errors, self.changes, self.ended)
        self.unreadErrorsDescriptor = readsErrors ? nil : stderrRead
        if !readsErrors {
            _ = ended.withLockedValue { $0.insert("errors") }
            errorsEndSink.finish()
        }
        self.stderrReader =
            !readsErrors
            ? nil
            : PipeReader(
                descriptor: stderrRead,
                onData: { data in
                    let ready = errors.withLockedValue { state in
                        state.text += String(decoding: data, as: UTF8.self)
                        let text = state.text
                        let ready = state.waiters.filter { text.contains($0.needle) }
                        state.waiters.removeAll { text.contains($0.needle) }
                        return ready
                    }
                    for waiter in ready { waiter.continuation.resume() }
                    Self.notify(changes)
                },
                onEnd: {
                    let waiters = errors.withLockedValue { state in
                        defer { state.waiters = [] }
                        return state.waiters
                    }
                    for waiter in waiters { waiter.continuation.resume() }
                    _ = ended.withLockedValue { $0.insert("errors") }
                    errorsEndSink.finish()
                    Self.notify(changes)
                }
            )

        let (exited, exitSink) = AsyncStream.makeStream(of: Void.self)
        self.exited = exited
        defer {
            // The child has its copies; without closing ours, the reads would never end.
            close(stdinRead)
            close(stdoutWrite)
            close(stderrWrite)
        }
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(
                Self.executable.path,
                arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                stdin: stdinRead, stdout: stdoutWrite, stderr: stderrWrite)
        } catch {
            close(stdoutRead)
            if readsErrors { close(stderrRead) }
            throw error
        }
        self.processIdentifier = pid
        let status = self.status
        // A thread of its own blocks in waitpid until the child exits (not a thread of the global
        // queue, which Swift concurrency runs its tasks on: blocking those would starve the tests).
        Thread {
            var raw: Int32 = 0
            var result = waitpid(pid, &raw, 0)
            while result < 0 && errno == EINTR { result = waitpid(pid, &raw, 0) }
            // As `Process.terminationStatus`: the exit code, or the signal that ended it; nil when
            // the wait failed.
            let signal = raw & 0x7f
            status.withLockedValue { $0 = result < 0 ? nil : signal == 0 ? (raw >> 8) & 0xff : signal }
            exitSink.finish()
        }.start()
        if readsOutput { self.startReadingOutput() }
    }

    private let lineSink: AsyncStream<String>.Continuation
    private let endSink: AsyncStream<Void>.Continuation
    private let stdoutDescriptor: Int32
    private let stdoutReader = NIOLockedValueBox<PipeReader?>(nil)
    private let stderrReader: PipeReader?
    /// The read end of a standard error pipe that is never read (`readsErrors: false`).
    private let unreadErrorsDescriptor: Int32?

    deinit {
        if let unreadErrorsDescriptor { close(unreadErrorsDescriptor) }
    }

    /// Fills an empty pipe to its capacity with lines of 4,096 bytes, in one write.
    private static func fill(_ descriptor: Int32) {
        #if os(Linux)
        let capacity = Int(fcntl(descriptor, 1032))  // F_GETPIPE_SZ
        #else
        let capacity = 16_384
        #endif
        let line = [UInt8](repeating: UInt8(ascii: "#"), count: 4095) + [UInt8(ascii: "\n")]
        let filler = Array([[UInt8]](repeating: line, count: max(1, capacity / 4096)).joined())
        let written = filler.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == filler.count, "the output pipe could not be filled")
    }

    /// Reads standard output from now on.
    func startReadingOutput() {
        let pending = NIOLockedValueBox<[UInt8]>([])
        let (printed, lineSink, endSink, changes) = (self.printed, self.lineSink, self.endSink, self.changes)
        let ended = self.ended
        let reader = PipeReader(
            descriptor: self.stdoutDescriptor,
            onData: { data in
                let complete = pending.withLockedValue { bytes -> [String] in
                    bytes.append(contentsOf: data)
                    var found: [String] = []
                    while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                        found.append(String(decoding: bytes[..<newline], as: UTF8.self))
                        bytes.removeSubrange(...newline)
                    }
                    return found
                }
                printed.withLockedValue { $0 += complete }
                for line in complete { lineSink.yield(line) }
                Self.notify(changes)
            },
            onEnd: {
                _ = ended.withLockedValue { $0.insert("output") }
                lineSink.finish()
                endSink.finish()
                Self.notify(changes)
            }
        )
        self.stdoutReader.withLockedValue { $0 = reader }
    }

    /// Returns once more output or errors arrived since `version` (0 at the start); returns the new
    /// version.
    func waitForChange(after version: Int) async -> Int {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let current = self.changes.withLockedValue { changes in
                if changes.version <= version { changes.waiters.append(continuation) }
                return changes.version
            }
            if current > version { continuation.resume(returning: current) }
        }
    }

    /// Stops reading standard output and closes this end of the pipe: the process's next write
    /// fails with EPIPE, and a pipe without reader reports a hang-up.
    func closeStandardOutput() {
        self.stdoutReader.withLockedValue { $0 }?.stop()
    }

    /// Writes one line to the process's standard input. A process that has already exited (a
    /// broken pipe) is not an error here: the test's expectations on its output say what went wrong,
    /// instead of the deprecated `write(_:)` trapping and taking every other test down with it.
    func send(line: String) {
        try? self.stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// With `readsErrors: false`: reads standard error from now on, without blocking, until it holds
    /// `text` or `timeout` passed, calling `between` after each read; returns what was read (after
    /// the filler the pipe was made full with).
    func readUnreadErrors(until text: String, within timeout: Duration, between: () -> Void) async -> String {
        guard let descriptor = self.unreadErrorsDescriptor else { return "" }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            let sofar = String(decoding: bytes, as: UTF8.self)
            if sofar.contains(text) { return sofar }
            between()
            try? await Task.sleep(for: .milliseconds(20))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to standard input without blocking, for at most `timeout`; returns how many
    /// bytes the pipe took.
    func sendWithoutBlocking(_ bytes: [UInt8], within timeout: Duration) async -> Int {
        let descriptor = self.stdin.fileHandleForWriting.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var written = 0
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while written < bytes.count && clock.now < deadline {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return written
    }

    /// Sends `signal` (SIGINT, SIGTERM, …) to the process.
    func send(signal: Int32) {
        kill(self.processIdentifier, signal)
    }

    /// Returns once standard error contains `text` (or ended without it).
    func waitForStandardError(containing text: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let found = self.errors.withLockedValue { state in
                if state.text.contains(text) { return true }
                state.waiters.append((text, continuation))
                return false
            }
            if found { continuation.resume() }
        }
    }

    /// Waits for the process to exit and its output to end; returns the exit status. Kills the
    /// process when the task is cancelled.
    func exitStatus() async -> Int32? {
        await withTaskCancellationHandler {
            for await _ in self.exited {}
            for await _ in self.endOfOutput {}
            for await _ in self.endOfErrors {}
            return self.status.withLockedValue { $0 }
        } onCancel: {
            let diagnosis = self.diagnosis
            self.diagnosisAtCancellation.withLockedValue { $0 = diagnosis }
            kill(self.processIdentifier, SIGTERM)
        }
    }

    /// What is known of the process, for a failure message: whether its exit was seen and its
    /// output and errors ended, and whether its process id still exists (with its state on Linux).
    /// After a cancelled ``exitStatus()``, what was known when the wait was cancelled.
    var diagnosis: String {
        if let earlier = self.diagnosisAtCancellation.withLockedValue({ $0 }) { return earlier }
        let status = self.status.withLockedValue { $0 }
        let ended = self.ended.withLockedValue { $0 }
        let pid = self.processIdentifier
        var process = kill(pid, 0) == 0 ? "exists" : "is gone"
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        {
            process += " (state \(state))"
        }
        return "exit \(status.map { "status \($0)" } ?? "not seen"), "
            + "standard output \(ended.contains("output") ? "ended" : "open"), "
            + "standard error \(ended.contains("errors") ? "ended" : "open"), process \(pid) \(process)"
    }

    /// Waits for the process to exit, not for its output; returns the exit status.
    func terminationStatus() async -> Int32? {
        await withTaskCancellationHandler {
            for await _ in self.exited {}
            return self.status.withLockedValue { $0 }
        } onCancel: {
            kill(self.processIdentifier, SIGTERM)
        }
    }

    /// Every line printed so far (all of them once ``exitStatus()`` returned).
    var standardOutputLines: [String] { self.printed.withLockedValue { $0 } }

    /// Standard error so far (all of it once ``exitStatus()`` returned).
    var standardError: String { self.errors.withLockedValue { $0.text } }
}
