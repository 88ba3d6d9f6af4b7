// SPDX-License-Identifier: MIT

import PusherCore

/// Work handed to the run loop: starting child tasks (only the loop owns the task group) and the
/// end of the run.
enum Command: Sendable {
    case startConnection(
        generation: Generation, url: String, endpoint: PusherEndpoint, headersAbandoned: WaitableState<Bool>)
    /// Ask the authorizer; `cancel` fires when the engine gives up on the call (it timed out).
    case authorize(channel: String, socketID: String, cancel: CallCancellation)
    case reloadKey(channel: String, socketID: String, cancel: CallCancellation)
    case authenticateUser(socketID: String, cancel: CallCancellation)
    /// Wake a signal changed under the engine lock (see `WaitableState.updateWithoutWaking`): the
    /// task it cancels runs its cancellation handlers (user code) here, where no lock is held.
    case wake(@Sendable () -> Void)
    case shutdown
    case finish
}

/// Set (with the engine's reason) when the engine gives up on an authorizer or user-authenticator
/// call: its task cancels the call.
typealias CallCancellation = WaitableState<PusherError?>
