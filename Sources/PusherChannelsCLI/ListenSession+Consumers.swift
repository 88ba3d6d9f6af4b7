// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

extension ListenSession {
    /// Errors of a consumer's registration that concern one of its channels: the others are
    /// registered again without it.
    static let channelRegistrationErrors: Set<PusherError.Code> = [
        .invalidChannelName, .authorizationRequired, .encryptionUnavailable, .invalidConfiguration,
    ]

    /// Every channel in one sequence (one task and one buffer, however many channels). A failing
    /// channel leaves the others flowing (the failure is on the client's errors); when the consumer
    /// falls behind it is registered again with the channels that did not fail; when no channel is
    /// left, the run ends with `everyChannelFailed` (unless `--sign-in` still listens).
    func consumeChannels() async -> ListenOutcome {
        var live = self.channels
        var backoff = ResubscribeBackoff(self.backoff)
        while !live.isEmpty {
            let start = self.clock.now
            var events = self.client.events(on: live, named: self.eventName).makeAsyncIterator()
            do {
                while let event = try await events.next() {
                    if let outcome = self.quiet ? self.countQuietly() : await self.emit(event) { return outcome }
                }
                // The client stopped, or this task was cancelled.
                return .ended
            } catch {
                if error.code == .consumerTooSlow {
                    Self.reportTooSlow(error, consumer: "the channels' consumer")
                    guard await self.waitBeforeSubscribingAgain(&backoff, since: start) else { return .ended }
                    let failed = self.failedChannels.withLockedValue { $0 }
                    live.removeAll { failed.contains($0) }
                } else if Self.channelRegistrationErrors.contains(error.code), let channel = error.channel,
                    live.contains(channel)
                {
                    Output.error("error: \(error)")
                    live.removeAll { $0 == channel }
                } else {
                    // The last channel failed; its failure (and every other one) is on the errors.
                    break
                }
            }
        }
        guard self.signIn else {
            Output.error("every channel failed")
            return .everyChannelFailed
        }
        Output.error("every channel failed; still listening as the signed-in user")
        return .ended
    }

    /// Membership changes of a presence channel, as JSON lines.
    func consumePresence(on channel: String) async -> ListenOutcome {
        var backoff = ResubscribeBackoff(self.backoff)
        while true {
            let start = self.clock.now
            do {
                for try await change in self.client.presence(on: channel) {
                    guard await self.output.write(ListenJSON.presence(change, on: channel)) else {
                        return .outputClosed
                    }
                }
                return .ended
            } catch {
                if error.code == .consumerTooSlow {
                    Self.reportTooSlow(error, consumer: "the presence consumer of \(channel)")
                    guard await self.waitBeforeSubscribingAgain(&backoff, since: start) else { return .ended }
                    continue
                }
                Output.error("presence \(channel): \(error)")
                return .ended
            }
        }
    }

    /// The signed-in user's events, printed and counted like channel events; finishes `registered`
    /// once the consumer is registered (sign-in waits for that).
    func consumeUserEvents(registered: AsyncStream<Never>.Continuation) async -> ListenOutcome {
        defer { registered.finish() }
        var backoff = ResubscribeBackoff(self.backoff)
        while true {
            let start = self.clock.now
            do {
                var events = self.client.userEvents(named: self.eventName).makeAsyncIterator()
                registered.finish()
                while let event = try await events.next() {
                    if let outcome = await self.emit(event) { return outcome }
                }
                return .ended
            } catch {
                if error.code == .consumerTooSlow {
                    Self.reportTooSlow(error, consumer: "the user's events consumer")
                    guard await self.waitBeforeSubscribingAgain(&backoff, since: start) else { return .ended }
                    continue
                }
                Output.error("user events: \(error)")
                return .ended
            }
        }
    }

    /// Waits the backoff's next delay on the client's clock before a consumer that fell behind is
    /// registered again; false when the task was cancelled meanwhile (the run is ending).
    private func waitBeforeSubscribingAgain(_ backoff: inout ResubscribeBackoff, since start: ContinuousClock.Instant)
        async -> Bool
    {
        let delay = backoff.delay(afterRunningFor: self.clock.now - start, random: Double.random(in: 0..<1))
        do {
            try await self.clock.sleep(for: delay)
            return true
        } catch {
            return false
        }
    }
}
