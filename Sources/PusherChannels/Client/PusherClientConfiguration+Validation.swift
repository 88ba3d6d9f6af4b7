// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClientConfiguration {
    /// The longest duration an option may have: longer ones would overflow time arithmetic, and
    /// a year is "never" for every timer of the client.
    static let maximumDuration = Duration.seconds(365 * 24 * 60 * 60)

    /// Checks the options that would crash the client or make it loop (a zero delay or timeout, a
    /// NaN factor, a size NIO cannot take), so that ``PusherClient/connect()`` fails at once with
    /// `invalidConfiguration` instead. Values that are merely odd are clamped where they are used,
    /// as their documentation says.
    func validate() throws(PusherError) {
        let durations: [(String, Duration)] = [
            ("activityTimeout", self.activityTimeout),
            ("pongTimeout", self.pongTimeout),
            ("handshakeTimeout", self.handshakeTimeout),
            ("closeTimeout", self.closeTimeout),
            ("authorizationTimeout", self.authorizationTimeout),
            ("keyReloadInterval", self.keyReloadInterval),
            ("backoff.initialDelay", self.backoff.initialDelay),
            ("backoff.maximumDelay", self.backoff.maximumDelay),
            ("backoff.resetAfter", self.backoff.resetAfter),
        ]
        for (name, duration) in durations where duration <= .zero || duration > Self.maximumDuration {
            throw Self.invalid(name, "\(duration)", "it must be more than zero and at most 365 days")
        }
        if self.backoff.multiplier.isNaN {
            throw Self.invalid("backoff.multiplier", "NaN", "it must be a number (below 1 counts as 1)")
        }
        if self.backoff.jitter.isNaN {
            throw Self.invalid("backoff.jitter", "NaN", "it must be a number from 0 to 1")
        }
        if let attempts = self.backoff.maximumAttempts, attempts < 0 {
            throw Self.invalid("backoff.maximumAttempts", "\(attempts)", "it must be 0 or more, or nil")
        }
        if let retry = self.subscriptionRetry.backoff { try Self.validate(retry, named: "subscriptionRetry.backoff") }
        let counts: [(String, Int, ClosedRange<Int>)] = [
            // NIO's frame decoder takes a 32-bit limit.
            ("maximumMessageSize", self.maximumMessageSize, 1...Int(UInt32.max)),
            ("outboundBufferLimit", self.outboundBufferLimit, 1...Int.max),
            ("clientEventQueueLimit", self.clientEventQueueLimit, 0...Int.max),
            ("maximumPresenceMembers", self.maximumPresenceMembers, 1...Int.max),
            ("maximumHeldEncryptedEvents", self.maximumHeldEncryptedEvents, 0...Int.max),
        ]
        for (name, value, range) in counts where !range.contains(value) {
            let bound =
                range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)–\(range.upperBound)"
            throw Self.invalid(name, "\(value)", "it must be \(bound)")
        }
        try UpgradeHeaders.check(self.headers)
        if case .proxy(let proxy) = self.proxy { try proxy.validate() }
    }

    /// The delays of a retry policy: a zero delay would retry a refusal in a tight loop.
    private static func validate(_ backoff: Backoff, named name: String) throws(PusherError) {
        for (field, duration) in [("initialDelay", backoff.initialDelay), ("maximumDelay", backoff.maximumDelay)]
        where duration <= .zero || duration > Self.maximumDuration {
            throw Self.invalid("\(name).\(field)", "\(duration)", "it must be more than zero and at most 365 days")
        }
        if backoff.multiplier.isNaN || backoff.jitter.isNaN {
            throw Self.invalid("\(name)", "NaN", "its multiplier and jitter must be numbers")
        }
        if let attempts = backoff.maximumAttempts, attempts < 0 {
            throw Self.invalid("\(name).maximumAttempts", "\(attempts)", "it must be 0 or more, or nil")
        }
    }

    private static func invalid(_ option: String, _ value: String, _ rule: String) -> PusherError {
        PusherError(.invalidConfiguration, "invalid option \(option) \(value): \(rule)")
    }
}
