// SPDX-License-Identifier: MIT

import NIOCore

/// Where a connection is in the round of ``PreEncodedEvents``: hands out the next events as slices
/// of the pre-encoded block (no copies), at most ``chunkBytes`` at a time.
struct EventCursor {
    let events: PreEncodedEvents
    /// The frame to send next.
    private var next = 0

    /// About how many bytes one write holds (at least one frame).
    static let chunkBytes = 128 * 1024

    init(_ events: PreEncodedEvents) {
        self.events = events
    }

    /// The next frames, at most `limit` of them: their bytes and how many they are.
    mutating func nextChunk(limit: Int) -> (bytes: ByteBuffer, count: Int) {
        let ends = self.events.ends
        let start = self.next == 0 ? 0 : ends[self.next - 1]
        // The last frame that still fits in a chunk (binary search over the frame ends), or the
        // next one when even that is bigger.
        var low = self.next
        var high = min(ends.count, self.next + limit) - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if ends[middle] - start <= Self.chunkBytes { low = middle } else { high = middle - 1 }
        }
        let last = low
        let bytes = self.events.block.getSlice(at: start, length: ends[last] - start)!  // within the block
        let count = last - self.next + 1
        self.next = last + 1 == ends.count ? 0 : last + 1
        return (bytes, count)
    }
}
