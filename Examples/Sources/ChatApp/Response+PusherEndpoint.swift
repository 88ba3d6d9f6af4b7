// SPDX-License-Identifier: MIT

import Hummingbird
import PusherChannelsServer

extension Response {
    /// The response to send for one of the Pusher endpoints: its status, its `Content-Type` and
    /// its body, errors already mapped (400 malformed, 401 bad webhook signature, 403 refused).
    init(_ endpoint: PusherEndpointResponse) {
        self.init(
            status: endpoint.status, headers: endpoint.headerFields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: endpoint.body)))
    }
}
