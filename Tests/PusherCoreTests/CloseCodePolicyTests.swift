// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Close code policy")
struct CloseCodePolicyTests {
    @Test(
        "close codes map to the protocol's reconnect rules",
        arguments: [
            (Int?.none, CloseCodePolicy.reconnectWithBackoff(minimumDelay: .zero)),
            (0, .reconnectWithBackoff(minimumDelay: .zero)),
            (-1, .reconnectWithBackoff(minimumDelay: .zero)),
            (1000, .reconnectWithBackoff(minimumDelay: .zero)),
            (1001, .reconnectWithBackoff(minimumDelay: .zero)),
            (1006, .reconnectWithBackoff(minimumDelay: .zero)),
            (3999, .reconnectWithBackoff(minimumDelay: .zero)),
            (4000, .doNotReconnect), (4001, .doNotReconnect), (4009, .doNotReconnect), (4099, .doNotReconnect),
            (4100, .reconnectWithBackoff(minimumDelay: .seconds(1))),
            (4199, .reconnectWithBackoff(minimumDelay: .seconds(1))),
            (4200, .reconnectImmediately), (4201, .reconnectImmediately), (4299, .reconnectImmediately),
            (4300, .reconnectWithBackoff(minimumDelay: .zero)),
            (4999, .reconnectWithBackoff(minimumDelay: .zero)),
        ]
    )
    func closeCodes(code: Int?, policy: CloseCodePolicy) {
        #expect(CloseCodePolicy(closeCode: code) == policy)
    }
}
