// SPDX-License-Identifier: MIT

/// The fields of one received message, in one immutable object: a ``PusherMessage`` and the
/// ``ChannelEvent`` made from it share it, so handing an event on (into an action, a batch, a
/// consumer's buffer) retains one reference instead of copying each string.
///
/// Immutable (`let`s of `Sendable` values in a `final` class), so it is `Sendable` without locks;
/// a change to a field makes a new one (see the setters of ``PusherMessage`` and ``ChannelEvent``).
package final class MessageFields: Sendable {
    package let event: String
    package let channel: String?
    package let data: String?
    package let userID: String?
    /// About how many bytes the fields keep alive: every string, plus a fixed overhead of 64
    /// (computed once, so that buffers that count bytes do not touch each string again).
    package let approximateByteCount: Int

    package init(event: String, channel: String?, data: String?, userID: String?) {
        self.event = event
        self.channel = channel
        self.data = data
        self.userID = userID
        self.approximateByteCount =
            64 + event.utf8.count + (channel?.utf8.count ?? 0) + (data?.utf8.count ?? 0) + (userID?.utf8.count ?? 0)
    }

    /// Whether both hold the same field values.
    package func hasSameValues(as other: MessageFields) -> Bool {
        self === other
            || (self.event == other.event && self.channel == other.channel && self.data == other.data
                && self.userID == other.userID)
    }
}
