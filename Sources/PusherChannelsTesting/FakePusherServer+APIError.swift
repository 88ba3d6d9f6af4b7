// SPDX-License-Identifier: MIT

import NIOHTTP1

extension FakePusherServer {
    /// An HTTP API request the fake server refuses: the status and the message it answers with.
    struct APIError: Error {
        let status: HTTPResponseStatus
        let message: String

        init(_ status: HTTPResponseStatus, _ message: String) {
            self.status = status
            self.message = message
        }
    }
}
