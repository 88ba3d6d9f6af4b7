// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

/// Something the driver decided to tell the user's logger or tracer. Decided
/// under the engine lock, told after it is released (see ``Observations``): the user's handlers
/// never run while the client's state is locked, so they may call back into the client.
enum Observation: Sendable {
    case log(Logger.Level, Logger.Message, Logger.Metadata)
    /// Connection-attempt spans to end: marked failed with the error if any, given the socket id
    /// if connected, marked cancelled if given up.
    case endSpans([any Span], error: PusherError?, socketID: String?, cancelled: Bool)
}
