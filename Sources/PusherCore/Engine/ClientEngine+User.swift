// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Sign in now or as soon as connected, and after every reconnect.
    package mutating func signIn(at now: Duration) -> [Action] {
        self.now = now
        var actions: [Action] = []
        self.apply(self.signInMachine.signIn(), into: &actions)
        return actions
    }

    /// The user authenticator answered for `socketID` (ignored when the call timed out already).
    package mutating func userAuthenticated(socketID: String, auth: String, userData: String) -> [Action] {
        var actions: [Action] = []
        guard self.callAnswered(.userAuthentication(socketID: socketID), into: &actions) else { return [] }
        self.apply(self.signInMachine.authenticated(socketID: socketID, auth: auth, userData: userData), into: &actions)
        return actions
    }

    /// The user authenticator failed for `socketID` (ignored when the call timed out already).
    package mutating func userAuthenticationFailed(socketID: String, error: PusherError) -> [Action] {
        var actions: [Action] = []
        guard self.callAnswered(.userAuthentication(socketID: socketID), into: &actions) else { return [] }
        let failure = error.code == .signInFailed ? error : PusherError(.signInFailed, error.message, cause: error)
        self.apply(self.signInMachine.authenticationFailed(socketID: socketID, error: failure), into: &actions)
        return actions
    }

    /// Performs what the sign-in machine decided.
    mutating func apply(_ signInActions: [SignInStateMachine.Action], into actions: inout [Action]) {
        for action in signInActions {
            switch action {
            case .authenticate(let socketID):
                self.startCall(
                    .userAuthentication(socketID: socketID), .authenticateUser(socketID: socketID), into: &actions)
            case .sendSignIn(let auth, let userData):
                self.sendOnReadyConnection(OutboundMessage.signIn(auth: auth, userData: userData), into: &actions)
            case .subscribe(let channel):
                self.sendOnReadyConnection(OutboundMessage.subscribe(channel: channel), into: &actions)
            case .publish(let state): actions.append(.publishUser(state))
            case .report(let error): actions.append(.report(error))
            }
        }
    }

    /// Delivers an event of a `#server-to-user-` channel if it is the signed-in user's; returns
    /// whether it was.
    func deliverToUser(_ message: PusherMessage, into actions: inout [Action]) -> Bool {
        guard let channel = message.channel, channel == self.signInMachine.user?.serverToUserChannel else {
            return false
        }
        let event = ChannelEvent(message, channel: channel)
        for consumer in self.consumers.user where consumer.takes(event.name) {
            actions.append(.deliver(event, consumer: consumer.id))
        }
        return true
    }
}
