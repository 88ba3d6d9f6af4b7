// SPDX-License-Identifier: MIT

import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A line of `listen`'s standard input, "CHANNEL EVENT JSON", sent as a client event.
enum ClientEventLine {
    /// Sends `line` as a client event; problems go to standard error.
    static func send(_ line: String, with client: PusherClient) async {
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else {
            if !line.allSatisfy(\.isWhitespace) {
                Output.error("client event: expected 'CHANNEL EVENT JSON', got '\(line)'")
            }
            return
        }
        do {
            try await client.trigger(parts[1], on: parts[0], data: parts.count > 2 ? parts[2] : "{}")
        } catch {
            Output.error("client event: \(error)")
        }
    }
}
