// SPDX-License-Identifier: MIT

import PusherChannels

/// What the server said to a subscription or sign-in made with an endpoint's answer.
enum DoctorVerdict: Sendable, Equatable {
    case accepted
    /// Refused, in the server's words (or the client's, when it refused the answer itself).
    case refused(String)
    case noAnswer

    /// "the server accepted the subscription to private-doctor", and so on.
    func description(of what: String) -> String {
        switch self {
        case .accepted: "the server accepted \(what)"
        case .refused(let reason): "\(what) failed: \(reason)"
        case .noAnswer: "the server did not answer \(what) within 10 s"
        }
    }

    /// Subscribes `client` to `channel` (its authorizer answers with what the endpoint answered)
    /// and waits for the server's confirmation or refusal.
    static func subscribing(_ client: PusherClient, to channel: String) async -> DoctorVerdict {
        let outcome = await DoctorDeadline.within { () async -> DoctorVerdict in
            do {
                try await client.withSubscription(to: channel) { _ in }
                return .accepted
            } catch let error as PusherError {
                return .refused(Self.reason(error))
            } catch {
                return .refused("\(error)")
            }
        }
        switch outcome {
        case .finished(let verdict): return verdict
        case .timedOut: return .noAnswer
        }
    }

    /// Signs `client` in (its user authenticator answers with what the endpoint answered) and
    /// waits for the server's confirmation or refusal.
    static func signingIn(_ client: PusherClient) async -> DoctorVerdict {
        let outcome = await DoctorDeadline.within { () async -> DoctorVerdict in
            var states = client.userStates.makeAsyncIterator()
            do {
                try await client.signIn()
            } catch let error as PusherError {
                return .refused(Self.reason(error))
            } catch {
                return .refused("\(error)")
            }
            while let state = await states.next() {
                switch state {
                case .signedIn: return .accepted
                case .failed(let error): return .refused(Self.reason(error))
                case .signedOut, .signingIn: continue
                }
            }
            return .noAnswer
        }
        switch outcome {
        case .finished(let verdict): return verdict
        case .timedOut: return .noAnswer
        }
    }

    /// The message of a refusal, with its code when the server gave one.
    private static func reason(_ error: PusherError) -> String {
        error.closeCode.map { "\(error.message) (code \($0))" } ?? error.message
    }
}
