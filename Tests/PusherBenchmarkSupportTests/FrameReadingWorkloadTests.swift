// SPDX-License-Identifier: MIT

import PusherBenchmarkSupport
import Testing

/// The frame-reading benchmark compares like with like: both readers decode every frame of the
/// workload, frames cut across reads included.
@Suite("Frame reading workload")
struct FrameReadingWorkloadTests {
    @Test(
        "the client's reader and NIO's ByteToMessageHandler decode every frame",
        arguments: FrameReadingWorkload.Reader.allCases)
    func everyFrame(reader: FrameReadingWorkload.Reader) throws {
        // Reads of 1,000 bytes cut most frames in two.
        let workload = FrameReadingWorkload(frames: 5_000, readBytes: 1_000)
        #expect(try workload.run(reader) == 5_000)
    }
}
