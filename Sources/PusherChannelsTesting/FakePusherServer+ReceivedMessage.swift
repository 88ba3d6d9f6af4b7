// SPDX-License-Identifier: MIT

import PusherChannels

extension FakePusherServer {
    /// One message a client sent.
    public struct ReceivedMessage: Sendable, Hashable {
        public var text: String
        /// The parsed envelope, nil when the text was not a valid message.
        public var message: PusherMessage?
        public var event: String? { self.message?.event }
    }
}
