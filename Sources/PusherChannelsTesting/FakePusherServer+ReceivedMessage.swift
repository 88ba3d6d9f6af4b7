// SPDX-License-Identifier: MIT

import PusherChannels

extension FakePusherServer {
    /// One message a client sent.
    public struct ReceivedMessage: Sendable, Hashable {
        public var text: String
        /// The parsed envelope, nil when the text was not a valid message.
        package var message: PusherMessage?
        /// The event name, nil when the text was not a valid message.
        public var event: String? { self.message?.event }
        /// The channel named in the envelope, if any.
        public var channel: String? { self.message?.channel }
        /// The `data` field as text (an object's exact JSON, a string unescaped once), if any.
        public var data: String? { self.message?.data }
    }
}
