// SPDX-License-Identifier: MIT

import Dispatch
import PusherChannels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `pusher-channels bench --serve …` in a child process, so that the measuring process runs the
/// client alone. The child prints `port=N` once it listens and serves until its standard input
/// closes (``stop()``, or this process ending).
///
/// Started with `posix_spawn(3)` and waited for with `waitpid(2)` (no Foundation `Process`).
final class LoadServerProcess: Sendable {
    let port: Int
    /// The write end of the child's standard input.
    private let input: Int32
    private let exited: AsyncStream<Int32>

    private init(port: Int, input: Int32, exited: AsyncStream<Int32>) {
        self.port = port
        self.input = input
        self.exited = exited
    }

    /// Starts this executable with `arguments` and waits for the port it prints.
    static func start(arguments: [String]) async throws -> LoadServerProcess {
        let (inputRead, inputWrite) = try Self.makePipe()
        let (outputRead, outputWrite) = try Self.makePipe()
        var actions = Self.makeFileActions()
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputRead, 0)
        posix_spawn_file_actions_adddup2(&actions, outputWrite, 1)
        #if os(Linux)
        let executable = "/proc/self/exe"
        #else
        let executable = CommandLine.arguments[0]
        #endif
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let status = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
            posix_spawn(&pid, executable, &actions, nil, argvPointer.baseAddress!, environ)
        }
        close(inputRead)
        close(outputWrite)
        guard status == 0 else {
            close(inputWrite)
            close(outputRead)
            throw PusherError(.transportFailed, "the load server process did not start (posix_spawn: \(status))")
        }
        let (exited, exitSink) = AsyncStream.makeStream(of: Int32.self)
        let child = pid
        // A queue of its own blocks in waitpid: a serial queue gets a thread of its own, where
        // the global queue's threads are the ones Swift concurrency runs its tasks on.
        DispatchQueue(label: "LoadServerProcess.waitpid").async {
            var status: Int32 = 0
            var result = waitpid(child, &status, 0)
            while result < 0 && errno == EINTR { result = waitpid(child, &status, 0) }
            // A failed wait reports no status (not a clean exit).
            if result >= 0 { exitSink.yield(status) }
            exitSink.finish()
        }
        let line = await Self.firstLine(of: outputRead)
        close(outputRead)
        guard let line, line.hasPrefix("port="), let port = Int(line.dropFirst(5)) else {
            close(inputWrite)
            throw PusherError(
                .transportFailed,
                "the load server process did not start (it printed \(line.map { "'\($0)'" } ?? "nothing"))")
        }
        return LoadServerProcess(port: port, input: inputWrite, exited: exited)
    }

    /// Closes the child's standard input, which ends it, and waits for it to exit; returns its
    /// wait status.
    @discardableResult
    func stop() async -> Int32? {
        close(self.input)
        var statuses = self.exited.makeAsyncIterator()
        return await statuses.next()
    }

    /// A pipe whose ends are closed on `exec` (the child gets its own copies through `dup2`).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw PusherError(.transportFailed, "cannot create a pipe for the load server process (errno \(errno))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    #if canImport(Darwin)
    private static func makeFileActions() -> posix_spawn_file_actions_t? {
        var actions: posix_spawn_file_actions_t?
        posix_spawn_file_actions_init(&actions)
        return actions
    }
    #else
    private static func makeFileActions() -> posix_spawn_file_actions_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        return actions
    }
    #endif

    /// The first line read from `descriptor`, on a thread of its own (reading blocks); nil at end
    /// of file.
    private static func firstLine(of descriptor: Int32) async -> String? {
        await withCheckedContinuation { continuation in
            // A queue of its own blocks in read: a serial queue gets a thread of its own, where the
            // global queue's threads are the ones Swift concurrency runs its tasks on.
            DispatchQueue(label: "LoadServerProcess.first-line").async {
                var bytes: [UInt8] = []
                var byte: UInt8 = 0
                while true {
                    let count = read(descriptor, &byte, 1)
                    if count < 0 && errno == EINTR { continue }
                    guard count == 1 else {
                        continuation.resume(returning: nil)
                        return
                    }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
