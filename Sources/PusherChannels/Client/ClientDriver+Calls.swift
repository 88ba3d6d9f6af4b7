// SPDX-License-Identifier: MIT

import PusherCore

extension ClientDriver {
    /// Hands an authorizer's answer to the engine, unless the engine gave up on the call.
    mutating func authorized(
        channel: String, socketID: String, isKeyReload: Bool, result: Result<ChannelAuthorization, PusherError>,
        cancel: CallCancellation
    ) {
        // The engine named the channel in its action: it was validated then.
        let name = ChannelName(unchecked: channel)
        let timer =
            isKeyReload
            ? TimerID.keyReload(channel: name, socketID: socketID)
            : TimerID.authorization(channel: name, socketID: socketID)
        guard let start = self.finishCall(timer, cancellation: cancel) else { return }
        let now = self.clock.now
        self.metrics?.authorization(
            channel: channel, isKeyReload: isKeyReload, succeeded: (try? result.get()) != nil, duration: now - start)
        if isKeyReload {
            self.perform(self.engine.keyReloaded(channel: name, socketID: socketID, result: result, at: now))
        } else {
            self.perform(self.engine.authorized(channel: name, socketID: socketID, result: result, at: now))
        }
    }

    /// Hands a user authenticator's answer to the engine, unless the engine gave up on the call.
    mutating func userAuthenticated(
        socketID: String, result: Result<UserAuthentication, PusherError>, cancel: CallCancellation
    ) {
        guard let start = self.finishCall(.userAuthentication(socketID: socketID), cancellation: cancel) else { return }
        let duration = self.clock.now - start
        switch result {
        case .success(let authentication):
            self.metrics?.signIn(succeeded: true, duration: duration)
            self.perform(
                self.engine.userAuthenticated(
                    socketID: socketID, auth: authentication.auth, userData: authentication.userData))
        case .failure(let error):
            self.metrics?.signIn(succeeded: false, duration: duration)
            self.perform(self.engine.userAuthenticationFailed(socketID: socketID, error: error))
        }
    }
}
