// SPDX-License-Identifier: MIT

import PusherChannels

/// A line of `listen`'s standard input, "CHANNEL EVENT JSON", sent as a client event.
enum ClientEventLine {
    /// How often a line is offered again while its channel's consumer is being subscribed again
    /// (after it fell behind with `--when-full fail`).
    static let retryInterval = Duration.milliseconds(50)

    /// Sends `line` as a client event; problems go to standard error.
    ///
    /// While the client's queue of client events is full (``PusherClientConfiguration/clientEventQueueLimit``
    /// events wait for the rate limit or for the subscription), this waits for room
    /// (``PusherClient/triggerWaitingForRoom(_:on:data:)``): standard input is then not read
    /// further, so its producer waits too, and no line is lost. While the channel's consumer is
    /// being subscribed again, the line is offered again every ``retryInterval``. A line that can never be sent (a name without `client-`, a public or encrypted
    /// channel, a channel not followed or whose subscription failed) is reported and skipped.
    /// Returns when the line was sent or skipped, or at once when the task is cancelled.
    static func send(
        _ line: String, with client: PusherClient, channels: [String], failedChannels: @Sendable () -> Set<String>,
        clock: ContinuousClock
    ) async {
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else {
            if !line.allSatisfy(\.isWhitespace) {
                Output.error("client event: expected 'CHANNEL EVENT JSON', got '\(line)'")
            }
            return
        }
        let (channel, event, data) = (parts[0], parts[1], parts.count > 2 ? parts[2] : "{}")
        while !Task.isCancelled {
            do {
                try await client.triggerWaitingForRoom(event, on: channel, data: data)
                return
            } catch let error as PusherError {
                guard error.code == .clientEventRejected,
                    Self.isSubscribingAgain(
                        event: event, channel: channel, channels: channels, failed: failedChannels())
                else {
                    Output.error("client event: \(error)")
                    return
                }
            } catch {
                // Cancelled.
                return
            }
            do {
                try await clock.sleep(for: Self.retryInterval)
            } catch {
                return
            }
        }
    }

    /// Whether a rejected client event can only have been refused because its channel's consumer is
    /// being registered again after falling behind: its name (prefix and length), its channel's
    /// kind and the channel are right.
    static func isSubscribingAgain(event: String, channel: String, channels: [String], failed: Set<String>) -> Bool {
        guard event.hasPrefix("client-"), PusherNameRules.isValidEventName(event), channels.contains(channel),
            !failed.contains(channel)
        else { return false }
        switch ChannelName.kind(of: channel) {
        case .private, .presence: return true
        default: return false
        }
    }
}
