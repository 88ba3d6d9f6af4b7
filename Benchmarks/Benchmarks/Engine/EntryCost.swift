// SPDX-License-Identifier: MIT

import Synchronization

/// What entering the client's state costs per socket read, the two ways the design allows: the
/// client's lock taken on the socket's thread (what the client does), or a hop onto an actor from
/// that thread (what an actor guarding the state would cost a read arriving on a NIO thread that is
/// not its executor). The body is the same trivial update in both; the difference is the entry.
@available(macOS 15, *)
enum EntryCost {
    /// State behind a lock, entered from the calling thread.
    static func locked(batches: Int) -> Int {
        let state = Mutex(0)
        for _ in 0..<batches { state.withLock { $0 += 1 } }
        return state.withLock { $0 }
    }

    actor Guarded {
        var count = 0
        func enter() { self.count += 1 }
    }

    /// State behind an actor, entered by a task that awaits each entry: the cheapest hop (a switch
    /// of executor, no thread handing over).
    static func hopped(batches: Int) async -> Int {
        let guarded = Guarded()
        for _ in 0..<batches { await guarded.enter() }
        return await guarded.count
    }

    /// State behind an actor, entered for reads that arrive on another thread (as a NIO event loop's
    /// do): each read is handed to the actor's task through a stream, and the reading thread waits
    /// for it to be taken (as flow control would) before the next read.
    static func handedOver(batches: Int) async -> Int {
        let guarded = Guarded()
        let (reads, reader) = AsyncStream.makeStream(of: Int.self)
        let (taken, taker) = AsyncStream.makeStream(of: Void.self)
        async let consumed: Void = {
            for await _ in reads {
                await guarded.enter()
                taker.yield()
            }
            taker.finish()
        }()
        var confirmations = taken.makeAsyncIterator()
        for read in 0..<batches {
            reader.yield(read)
            _ = await confirmations.next()
        }
        reader.finish()
        await consumed
        return await guarded.count
    }
}
