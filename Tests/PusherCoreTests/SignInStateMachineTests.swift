// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Sign-in state machine")
struct SignInStateMachineTests {
    typealias Action = SignInStateMachine.Action

    /// One input to the machine.
    enum Step: CustomStringConvertible {
        case signIn
        case connected(String)
        case disconnected
        case authenticated(String, auth: String, userData: String)
        case authenticationFailed(String, PusherError)
        case signInSucceeded(String?)
        case serverError(PusherError)

        var description: String {
            switch self {
            case .signIn: "signIn"
            case .connected(let socketID): "connected(\(socketID))"
            case .disconnected: "disconnected"
            case .authenticated(let socketID, _, _): "authenticated(\(socketID))"
            case .authenticationFailed(let socketID, _): "authenticationFailed(\(socketID))"
            case .signInSucceeded(let userData): "signInSucceeded(\(userData ?? "nil"))"
            case .serverError: "serverError"
            }
        }
    }

    static let authFailure = PusherError(.signInFailed, "the user authenticator threw")
    static let serverRefusal = PusherError(.serverError, "Invalid signature", closeCode: 4009)
    static let userData = #"{"id":"ann","user_info":{"name":"Ann"}}"#
    static let ann = SignedInUser(id: "ann", info: .object(["name": .string("Ann")]), userData: userData)

    /// Runs `steps` on a new machine, checking each step's actions; returns the machine.
    @discardableResult
    static func run(_ steps: [(Step, [Action])], sourceLocation: SourceLocation = #_sourceLocation)
        -> SignInStateMachine
    {
        var machine = SignInStateMachine()
        for (index, (step, expected)) in steps.enumerated() {
            let actions: [Action] =
                switch step {
                case .signIn: machine.signIn()
                case .connected(let socketID): machine.connected(socketID: socketID)
                case .disconnected: machine.disconnected()
                case .authenticated(let socketID, let auth, let userData):
                    machine.authenticated(socketID: socketID, auth: auth, userData: userData)
                case .authenticationFailed(let socketID, let error):
                    machine.authenticationFailed(socketID: socketID, error: error)
                case .signInSucceeded(let userData): machine.signInSucceeded(userData: userData)
                case .serverError(let error): machine.serverError(error)
                }
            #expect(actions == expected, "step \(index): \(step)", sourceLocation: sourceLocation)
        }
        return machine
    }

    @Test("signing in while connected: authenticate, send, confirm, subscribe the user's channel")
    func happyPath() {
        let machine = Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticated("1.1", auth: "key:sig", userData: Self.userData),
                [.sendSignIn(auth: "key:sig", userData: Self.userData)]
            ),
            (
                .signInSucceeded(Self.userData),
                [.subscribe(channel: "#server-to-user-ann"), .publish(.signedIn(Self.ann))]
            ),
        ])
        #expect(machine.user == Self.ann)
    }

    @Test("signing in before the connection waits for a socket id; signIn() is idempotent")
    func beforeConnection() {
        let machine = Self.run([
            (.signIn, [.publish(.signingIn)]),
            (.signIn, []),
            (.connected("1.1"), [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (.signIn, []),
        ])
        #expect(machine.user == nil)
    }

    @Test("without signIn(), connections do nothing")
    func notWanted() {
        Self.run([
            (.connected("1.1"), []),
            (.disconnected, []),
            (.connected("2.2"), []),
            (.signInSucceeded(Self.userData), []),
            (.serverError(Self.serverRefusal), []),
        ])
    }

    @Test("answers for another socket id, or in the wrong phase, are ignored")
    func staleAnswers() {
        Self.run([
            (.signIn, [.publish(.signingIn)]),
            (.authenticated("1.1", auth: "a", userData: Self.userData), []),
            (.connected("1.1"), [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (.signInSucceeded(Self.userData), []),
            (.disconnected, []),
            (.connected("2.2"), [.publish(.signingIn), .authenticate(socketID: "2.2")]),
            (.authenticated("1.1", auth: "old", userData: Self.userData), []),
            (.authenticationFailed("1.1", Self.authFailure), []),
            (
                .authenticated("2.2", auth: "new", userData: Self.userData),
                [.sendSignIn(auth: "new", userData: Self.userData)]
            ),
            (.authenticated("2.2", auth: "again", userData: Self.userData), []),
            (.authenticationFailed("2.2", Self.authFailure), []),
        ])
    }

    @Test("a failed authentication is reported and published; the next connection tries again")
    func authenticationFailed() {
        let machine = Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticationFailed("1.1", Self.authFailure),
                [.report(Self.authFailure), .publish(.failed(Self.authFailure))]
            ),
            (.disconnected, []),
            (.connected("2.2"), [.publish(.signingIn), .authenticate(socketID: "2.2")]),
        ])
        #expect(machine.user == nil)
    }

    @Test(
        "errors that are not about the sign-in leave it waiting for its answer",
        arguments: [
            PusherError(.serverError, "Client event rejected due to rate limit", closeCode: 4301),
            PusherError(.serverError, "Watchlist limit exceeded", closeCode: 4302),
            PusherError(.serverError, "Existing subscription", channel: "private-a"),
        ]
    )
    func unrelatedServerError(error: PusherError) {
        Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticated("1.1", auth: "a", userData: Self.userData),
                [.sendSignIn(auth: "a", userData: Self.userData)]
            ),
            (.serverError(error), []),
            (
                .signInSucceeded(Self.userData),
                [.subscribe(channel: Self.ann.serverToUserChannel), .publish(.signedIn(Self.ann))]
            ),
        ])
    }

    @Test("a pusher:error while waiting for confirmation fails the sign-in with signInFailed, unreported")
    func serverRefusal() {
        var failure = Self.serverRefusal
        failure.code = .signInFailed
        Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (.serverError(Self.serverRefusal), []),
            (
                .authenticated("1.1", auth: "a", userData: Self.userData),
                [.sendSignIn(auth: "a", userData: Self.userData)]
            ),
            (.serverError(Self.serverRefusal), [.publish(.failed(failure))]),
            (.serverError(Self.serverRefusal), []),
            (.signInSucceeded(Self.userData), []),
        ])
    }

    @Test(
        "a confirmation without a usable user_data fails the sign-in",
        arguments: [
            (String?.none, "pusher:signin_success rejected: pusher:signin_success without user_data"),
            ("not json", "pusher:signin_success rejected: user_data is not a JSON object"),
            (#"["ann"]"#, "pusher:signin_success rejected: user_data is not a JSON object"),
            (#"{"user_info":{}}"#, #"pusher:signin_success rejected: user_data has no non-empty string "id""#),
            (#"{"id":""}"#, #"pusher:signin_success rejected: user_data has no non-empty string "id""#),
            (#"{"id":7}"#, #"pusher:signin_success rejected: user_data has no non-empty string "id""#),
        ]
    )
    func unusableConfirmation(userData: String?, message: String) {
        let failure = PusherError(.signInFailed, message)
        let machine = Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticated("1.1", auth: "a", userData: Self.userData),
                [.sendSignIn(auth: "a", userData: Self.userData)]
            ),
            (.signInSucceeded(userData), [.report(failure), .publish(.failed(failure))]),
        ])
        #expect(machine.user == nil)
    }

    @Test("losing the connection while signed in publishes signingIn; the reconnect signs in again")
    func reconnect() {
        let machine = Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticated("1.1", auth: "a", userData: Self.userData),
                [.sendSignIn(auth: "a", userData: Self.userData)]
            ),
            (
                .signInSucceeded(Self.userData),
                [.subscribe(channel: "#server-to-user-ann"), .publish(.signedIn(Self.ann))]
            ),
            (.disconnected, [.publish(.signingIn)]),
            (.disconnected, []),
            (.connected("2.2"), [.publish(.signingIn), .authenticate(socketID: "2.2")]),
            (
                .authenticated("2.2", auth: "b", userData: Self.userData),
                [.sendSignIn(auth: "b", userData: Self.userData)]
            ),
            (
                .signInSucceeded(Self.userData),
                [.subscribe(channel: "#server-to-user-ann"), .publish(.signedIn(Self.ann))]
            ),
        ])
        #expect(machine.user?.id == "ann")
    }

    @Test("losing the connection before the confirmation publishes nothing and drops the pending answer")
    func disconnectWhilePending() {
        Self.run([
            (.connected("1.1"), []),
            (.signIn, [.publish(.signingIn), .authenticate(socketID: "1.1")]),
            (
                .authenticated("1.1", auth: "a", userData: Self.userData),
                [.sendSignIn(auth: "a", userData: Self.userData)]
            ),
            (.disconnected, []),
            (.signInSucceeded(Self.userData), []),
        ])
    }

    @Test(
        "user_data is read into the signed-in user",
        arguments: [
            (#"{"id":"1"}"#, "1", JSONValue?.none),
            (
                #"{"id":"u-2","user_info":{"name":"B","tags":[1]}}"#, "u-2",
                JSONValue.object(["name": "B", "tags": [1]])
            ),
            (#" {"user_info":null,"id":"x","watchlist":["a"]} "#, "x", JSONValue.null),
        ]
    )
    func signedInUser(userData: String, id: String, info: JSONValue?) throws {
        let user = try SignedInUser(userData: userData)
        #expect(user.id == id)
        #expect(user.info == info)
        #expect(user.userData == userData)
        #expect(user.serverToUserChannel == "#server-to-user-\(id)")
    }

    @Test(
        "user states describe themselves and give the user only when signed in",
        arguments: [
            (UserState.signedOut, "signedOut", false),
            (.signingIn, "signingIn", false),
            (.signedIn(SignedInUser(id: "ann", info: nil, userData: #"{"id":"ann"}"#)), "signedIn(ann)", true),
            (.failed(PusherError(.signInFailed, "no")), "failed(signInFailed: no)", false),
        ]
    )
    func userStates(state: UserState, description: String, hasUser: Bool) {
        #expect(state.description == description)
        #expect((state.user != nil) == hasUser)
    }
}
