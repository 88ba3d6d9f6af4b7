// SPDX-License-Identifier: MIT

import Dispatch
import Foundation
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
final class LoadServerProcess: Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe
    private let exited: AsyncStream<Int32>

    private init(port: Int, process: Process, input: Pipe, exited: AsyncStream<Int32>) {
        self.port = port
        self.process = process
        self.input = input
        self.exited = exited
    }

    /// Starts this executable with `arguments` and waits for the port it prints.
    static func start(arguments: [String]) async throws -> LoadServerProcess {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let (exited, exitSink) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exitSink.yield(process.terminationStatus)
            exitSink.finish()
        }
        try process.run()
        let line = await Self.firstLine(of: output.fileHandleForReading.fileDescriptor)
        guard let line, line.hasPrefix("port="), let port = Int(line.dropFirst(5)) else {
            input.fileHandleForWriting.closeFile()
            throw PusherError(
                .transportFailed,
                "the load server process did not start (it printed \(line.map { "'\($0)'" } ?? "nothing"))")
        }
        return LoadServerProcess(port: port, process: process, input: input, exited: exited)
    }

    /// Closes the child's standard input, which ends it, and waits for it to exit; returns its
    /// exit status.
    @discardableResult
    func stop() async -> Int32? {
        self.input.fileHandleForWriting.closeFile()
        var statuses = self.exited.makeAsyncIterator()
        return await statuses.next()
    }

    /// The first line read from `descriptor`, on a thread of its own (reading blocks); nil at end
    /// of file.
    private static func firstLine(of descriptor: Int32) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
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
