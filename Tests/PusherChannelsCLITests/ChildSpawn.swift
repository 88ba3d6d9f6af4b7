// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts child processes for the tests with `posix_spawn(3)`, not with Foundation's `Process`: on
/// Linux (swift-corelibs-foundation of Swift 6.3.1) `Process.run()` reads past the directory
/// entries of `/proc/self/fd` and now and then crashes the whole test process
/// (swiftlang/swift-corelibs-foundation#5472).
enum ChildSpawn {
    /// Starts the executable with `arguments` and `environment`, its standard input, output and
    /// error on the given descriptors; returns its process id. The child keeps no other descriptor of this
    /// process, and gets every signal at its default action.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32
    ) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // As `Process` does: the child keeps no other descriptor of this process (NIO's sockets are
        // not all close-on-exec; a child holding another test's listening socket would take its
        // connections).
        Self.closeOthers(&actions)
        // As `Process` does: every signal at its default action and none blocked in the child
        // (an ignored SIGPIPE, say, would otherwise be inherited).
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        #if canImport(Darwin)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        #endif
        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid = pid_t()
        let result = Self.spawning.withLock {
            (argv + [nil]).withUnsafeBufferPointer { argvPointer in
                (envp + [nil]).withUnsafeBufferPointer { envpPointer in
                    posix_spawn(&pid, path, &actions, &attributes, argvPointer.baseAddress!, envpPointer.baseAddress!)
                }
            }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }

    #if os(Linux)
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not show.
    private static let addCloseFrom: AddCloseFrom? = dlsym(
        dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np"
    )
    .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Closes every descriptor from 3 up in the child.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom = Self.addCloseFrom {
            _ = addCloseFrom(&actions, 3)
        } else {
            for descriptor in Int32(3)..<1024 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
    }
    #else
    /// Nothing here: on Darwin the spawn's `POSIX_SPAWN_CLOEXEC_DEFAULT` closes every descriptor
    /// but the three given (a close action for one that is not open would fail the spawn there).
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t?) {}
    #endif

    /// Held while a pipe is made close-on-exec and while a child is spawned: other tests start
    /// processes at the same time, and a child spawned between a `pipe` and its `fcntl` would keep
    /// the pipe open (a standard input that never ends).
    private static let spawning = NIOLock()

    /// A pipe whose ends are closed in every child (the spawn moves the child's end to its 0, 1 or
    /// 2, without the flag).
    static func makePipe() throws -> (read: Int32, write: Int32) {
        try Self.spawning.withLock {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
    }
}
