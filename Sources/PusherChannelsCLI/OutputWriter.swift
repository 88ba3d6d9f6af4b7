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

/// Standard output of `listen`: lines are collected in a bounded buffer that a serial queue of its
/// own writes out with `write(2)`, so a slow reader never blocks a thread of the concurrency pool.
///
/// A writer whose line does not fit waits (in line order) until the buffer drained: a slow reader
/// slows the consumers, whose own buffers then apply their policy (`--buffer-limit`). When the
/// reader went away (`EPIPE`, or a hang-up seen by ``watchForHangUp()``), every write returns
/// false and ``closed()`` returns.
final class OutputWriter: Sendable {
    private struct Waiter {
        var id: UInt64
        var bytes: [UInt8]
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var pending: [UInt8] = []
        var waiters: [Waiter] = []
        var isWriting = false
        var isClosed = false
        var lastID: UInt64 = 0
        var closeObservers: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var idleObservers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())
    private let descriptor: Int32
    private let capacity: Int
    private let queue = DispatchQueue(label: "pusher-channels.stdout")

    /// - Parameter capacity: Bytes buffered before writers wait.
    init(descriptor: Int32 = 1, capacity: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
    }

    /// Writes `line` and a newline. Suspends while the buffer is full; returns false (without
    /// writing) once the output is closed or when the task is cancelled while waiting.
    func write(_ line: String) async -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let id = self.nextID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (result, startWriting) = self.state.withLockedValue { state -> (Bool?, Bool) in
                    if state.isClosed { return (false, false) }
                    if state.waiters.isEmpty && state.pending.count < self.capacity {
                        state.pending += bytes
                        defer { state.isWriting = true }
                        return (true, !state.isWriting)
                    }
                    // The cancellation handler may have run already; it found nothing to resume.
                    if Task.isCancelled { return (false, false) }
                    state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    return (nil, false)
                }
                if startWriting { self.queue.async { self.drain() } }
                if let result { continuation.resume(returning: result) }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Returns when the output was closed, or at once when the task is cancelled.
    func closed() async {
        let id = self.nextID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state in
                    if state.isClosed || Task.isCancelled { return true }
                    state.closeObservers.append((id, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let observer = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.closeObservers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.closeObservers.remove(at: index).continuation
            }
            observer?.resume()
        }
    }

    var isClosed: Bool { self.state.withLockedValue { $0.isClosed } }

    private func nextID() -> UInt64 {
        self.state.withLockedValue { state in
            state.lastID += 1
            return state.lastID
        }
    }

    /// Returns when everything written so far is out (or the output closed).
    func drained() async {
        await withCheckedContinuation { (idle: CheckedContinuation<Void, Never>) in
            let isIdle = self.state.withLockedValue { state in
                let isIdle = state.isClosed || !state.isWriting
                if !isIdle { state.idleObservers.append(idle) }
                return isIdle
            }
            if isIdle { idle.resume() }
        }
    }

    /// When standard output is a pipe or a socket, watches it on a thread of its own and closes the
    /// writer as soon as the reader goes away, even if nothing is written then (`listen | head -n 1`
    /// on a quiet channel).
    func watchForHangUp() {
        var status = stat()
        guard fstat(self.descriptor, &status) == 0 else { return }
        let type = status.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        let descriptor = self.descriptor
        // A queue of its own (a thread of its own), blocked in poll(2) until the reader goes away:
        // not a thread of the global pool, which Swift concurrency runs its tasks on.
        DispatchQueue(label: "pusher-channels.stdout-hang-up").async {
            var watched = pollfd(fd: descriptor, events: 0, revents: 0)
            while true {
                let result = poll(&watched, 1, -1)
                if result < 0 && errno == EINTR { continue }
                if result < 0 { return }
                if watched.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { break }
            }
            self.close()
        }
    }

    /// Writes the buffer out until it is empty; runs on `queue`.
    private func drain() {
        while true {
            let chunk = self.state.withLockedValue { state -> [UInt8]? in
                guard !state.isClosed, !state.pending.isEmpty else {
                    state.isWriting = false
                    return nil
                }
                defer { state.pending = [] }
                return state.pending
            }
            guard let chunk else {
                self.resumeIdleObservers()
                return
            }
            guard DescriptorWriting.writeAll(to: self.descriptor, chunk) else {
                self.close()
                return
            }
            let admitted = self.state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
                var admitted: [CheckedContinuation<Bool, Never>] = []
                while let first = state.waiters.first, state.pending.count < self.capacity {
                    state.waiters.removeFirst()
                    state.pending += first.bytes
                    admitted.append(first.continuation)
                }
                return admitted
            }
            for continuation in admitted { continuation.resume(returning: true) }
        }
    }

    /// Marks the output closed: every waiting and later write returns false.
    private func close() {
        let (waiters, observers, idle) = self.state.withLockedValue { state in
            state.isClosed = true
            state.pending = []
            defer { (state.waiters, state.closeObservers, state.idleObservers) = ([], [], []) }
            return (state.waiters, state.closeObservers, state.idleObservers)
        }
        for waiter in waiters { waiter.continuation.resume(returning: false) }
        for observer in observers { observer.continuation.resume() }
        for observer in idle { observer.resume() }
    }

    private func resumeIdleObservers() {
        let idle = self.state.withLockedValue { state in
            defer { state.idleObservers = [] }
            return state.isWriting ? [] : state.idleObservers
        }
        for observer in idle { observer.resume() }
    }

}
