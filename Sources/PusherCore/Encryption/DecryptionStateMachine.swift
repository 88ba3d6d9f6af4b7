// SPDX-License-Identifier: MIT

/// Decryption of private-encrypted channels: one key per subscribed channel, one key reload after
/// a failure, and event order kept while the reload is in flight.
///
/// When an event does not open with the channel's key, the machine asks for the key to be reloaded
/// (through the authorizer) and holds that event and every later event of the channel until the
/// reload ends; then it tries the held event again with the new key and delivers or reports the
/// others in order. When a reloaded key does not open anything, later failures are reported
/// without reloading again (the authorizer gave its current key; asking again per event would only
/// flood it) until that key opens an event. A reload that failed (the authorizer threw or timed
/// out) does not stop the next failure from trying again. Malformed payloads are reported without a
/// reload.
///
/// Two limits keep a hostile server from turning this into work without end: at most one reload
/// per channel per `reloadInterval` (a rate limit checked when a payload fails to open, not a
/// timer: nothing happens when the interval ends; forged events interleaved with valid ones would otherwise
/// start a reload each), and at most `maximumHeld` events and `maximumHeldBytes` bytes (every
/// string of the message, see ``heldByteCount(of:)``) held during a reload (later ones are reported
/// with reason `heldEventsLimit`). Held events are appended in place: holding is linear.
///
/// Pure: the cipher is passed in as `open`, and the driver performs the ``Action``s.
package struct DecryptionStateMachine: Sendable {
    /// What opening one payload with one key gave.
    package enum Opened: Sendable, Hashable {
        case plaintext(String)
        /// The payload is not well formed; `String` says how.
        case malformed(String)
        /// The key does not open it.
        case wrongKey
    }

    package typealias Open = (_ message: PusherMessage, _ key: [UInt8]) -> Opened

    package enum Action: Sendable, Hashable {
        case deliver(PusherMessage, plaintext: String)
        /// Ask the authorizer for `channel` again and report with `reloadSucceeded`/`reloadFailed`.
        case reload(channel: ChannelName)
        case report(DecryptionFailure)
    }

    private struct Channel: Sendable {
        var key: [UInt8]
        var isReloading = false
        var mayReload = true
        /// When the last reload started.
        var lastReload: Duration?
        /// Held while reloading; the first one is the event that failed.
        var held: [PusherMessage] = []
        /// The bytes of `held`.
        var heldBytes = 0
    }

    private var channels: [ChannelName: Channel] = [:]
    /// Events held for one channel during a reload, at most.
    package let maximumHeld: Int
    /// Bytes of events held for one channel during a reload, at most.
    package let maximumHeldBytes: Int
    /// At most one reload per channel per this interval.
    package let reloadInterval: Duration

    /// The defaults are ``ClientDefaults``'.
    package init(
        maximumHeld: Int = ClientDefaults.maximumHeldEncryptedEvents,
        maximumHeldBytes: Int = ClientDefaults.maximumHeldEncryptedBytes,
        reloadInterval: Duration = ClientDefaults.keyReloadInterval
    ) {
        self.maximumHeld = max(1, maximumHeld)
        self.maximumHeldBytes = max(1, maximumHeldBytes)
        self.reloadInterval = reloadInterval
    }

    /// `channel` was (re)subscribed with `key`: it replaces whatever was known.
    package mutating func subscribed(_ channel: ChannelName, key: [UInt8]) -> [Action] {
        let actions = self.removed(channel)
        self.channels[channel] = Channel(key: key)
        return actions
    }

    /// `channel` was unsubscribed, or its connection was lost: the key is dropped, and held events
    /// are reported.
    package mutating func removed(_ channel: ChannelName) -> [Action] {
        guard let state = self.channels.removeValue(forKey: channel) else { return [] }
        return state.held.map {
            .report(
                DecryptionFailure(
                    channel: channel.rawValue, event: $0.event, reason: .channelGone,
                    message: "the channel's subscription ended while its key was reloading"))
        }
    }

    /// Every channel is gone (the connection was lost).
    package mutating func removeAll() -> [Action] {
        self.channels.keys.sorted().flatMap { self.removed($0) }
    }

    /// An encrypted event of `message.channel` arrived.
    package mutating func received(_ message: PusherMessage, at now: Duration, open: Open) -> [Action] {
        var actions: [Action] = []
        self.received(message, at: now, open: open, into: &actions)
        return actions
    }

    /// ``received(_:at:open:)`` appending to the caller's buffer (the per-event path of encrypted
    /// channels reuses one instead of making an array per event).
    package mutating func received(_ message: PusherMessage, at now: Duration, open: Open, into actions: inout [Action])
    {
        let channel = message.channel.map(ChannelName.init(unchecked:))
        guard let channel, let index = self.channels.index(forKey: channel) else {
            actions.append(
                .report(
                    DecryptionFailure(
                        channel: message.channel ?? "",
                        event: message.event,
                        reason: .cannotDecrypt,
                        message: "no key for this channel (it is not subscribed)"
                    )
                ))
            return
        }
        let limits = self.limits
        // In place: a copy of the channel's state would copy its held events on every append.
        Self.process(
            message, channel: channel, state: &self.channels.values[index], actions: &actions, at: now, open: open,
            limits: limits)
    }

    private var limits: Limits {
        Limits(
            maximumHeld: self.maximumHeld, maximumHeldBytes: self.maximumHeldBytes, reloadInterval: self.reloadInterval)
    }

    private struct Limits {
        var maximumHeld: Int
        var maximumHeldBytes: Int
        var reloadInterval: Duration
    }

    /// The bytes a held message keeps alive: its event name, channel, data and user id, plus a
    /// fixed overhead.
    package static func heldByteCount(of message: PusherMessage) -> Int {
        message.fields.approximateByteCount
    }

    /// The reload for `channel` gave `key`.
    package mutating func reloadSucceeded(_ channel: ChannelName, key: [UInt8], at now: Duration, open: Open)
        -> [Action]
    {
        guard var state = self.channels[channel], state.isReloading else { return [] }
        state.key = key
        state.isReloading = false
        state.mayReload = false
        var actions: [Action] = []
        let held = state.held
        state.held = []
        state.heldBytes = 0
        // Should one of them start another reload, `process` holds it and the rest again.
        for message in held {
            Self.process(
                message, channel: channel, state: &state, actions: &actions, at: now, open: open, limits: self.limits)
        }
        self.channels[channel] = state
        return actions
    }

    /// The reload for `channel` failed with `message`: the event that needed it is reported, the
    /// others are tried with the key the channel had.
    package mutating func reloadFailed(_ channel: ChannelName, message: String, at now: Duration, open: Open)
        -> [Action]
    {
        guard var state = self.channels[channel], state.isReloading, let first = state.held.first else { return [] }
        state.isReloading = false
        // A failed reload says nothing about the key: the next failure may try again.
        state.mayReload = true
        var actions: [Action] = [
            .report(
                DecryptionFailure(
                    channel: channel.rawValue, event: first.event, reason: .reloadFailed, message: message))
        ]
        let rest = state.held.dropFirst()
        state.held = []
        state.heldBytes = 0
        for message in rest {
            Self.process(
                message, channel: channel, state: &state, actions: &actions, at: now, open: open, limits: self.limits)
        }
        self.channels[channel] = state
        return actions
    }

    private static func process(
        _ message: PusherMessage,
        channel: ChannelName,
        state: inout Channel,
        actions: inout [Action],
        at now: Duration,
        open: Open,
        limits: Limits
    ) {
        if state.isReloading {
            let size = Self.heldByteCount(of: message)
            guard state.held.count < limits.maximumHeld, state.heldBytes + size <= limits.maximumHeldBytes else {
                let what =
                    state.held.count < limits.maximumHeld
                    ? "\(limits.maximumHeldBytes) bytes of events (maximumHeldEncryptedBytes)"
                    : "\(limits.maximumHeld) events (maximumHeldEncryptedEvents)"
                actions.append(
                    .report(
                        DecryptionFailure(
                            channel: channel.rawValue, event: message.event, reason: .heldEventsLimit,
                            message: "\(what) already wait for the channel's key reload")
                    )
                )
                return
            }
            state.held.append(message)
            state.heldBytes += size
            return
        }
        switch open(message, state.key) {
        case .plaintext(let plaintext):
            state.mayReload = true
            actions.append(.deliver(message, plaintext: plaintext))
        case .malformed(let reason):
            actions.append(
                .report(
                    DecryptionFailure(
                        channel: channel.rawValue, event: message.event, reason: .malformedPayload,
                        message: reason)))
        case .wrongKey where state.mayReload && state.lastReload.map({ now - $0 >= limits.reloadInterval }) ?? true:
            state.isReloading = true
            state.lastReload = now
            state.held = [message]
            state.heldBytes = Self.heldByteCount(of: message)
            actions.append(.reload(channel: channel))
        case .wrongKey:
            // No reload now: either one did not help, or the last one is too recent.
            let why =
                state.mayReload
                ? "its key was reloaded less than \(limits.reloadInterval) ago (keyReloadInterval)"
                : "and a reload did not help"
            actions.append(
                .report(
                    DecryptionFailure(
                        channel: channel.rawValue, event: message.event, reason: .cannotDecrypt,
                        message: "the channel's key does not open the event; \(why)")
                )
            )
        }
    }
}
