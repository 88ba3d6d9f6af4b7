// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

/// Everything a client told its user, as text: error descriptions, connection and user states,
/// subscription outcomes. For scanning it for secrets.
final class ObservedTexts: Sendable {
    private let texts = NIOLockedValueBox<[String]>([])

    var all: [String] { self.texts.withLockedValue { $0 } }

    func append(_ text: String) {
        self.texts.withLockedValue { $0.append(text) }
    }

    /// Records the client's errors, connection states, user states and subscription outcomes until
    /// it stops; the observers are registered before this returns.
    func observe(_ client: PusherClient) -> Task<Void, Never> {
        let errors = client.errors.makeAsyncIterator()
        let states = client.connectionStates.makeAsyncIterator()
        let userStates = client.userStates.makeAsyncIterator()
        let subscriptions = client.subscriptionEvents().makeAsyncIterator()
        let tasks = [
            Task {
                var errors = errors
                while let error = await errors.next() { self.append(error) }
            },
            Task {
                var states = states
                while let state = await states.next() { self.append("\(state)") }
            },
            Task {
                var userStates = userStates
                while let state = await userStates.next() { self.append("\(state)") }
            },
            Task {
                var subscriptions = subscriptions
                while let event = await subscriptions.next() { self.append("\(event)") }
            },
        ]
        return Task {
            for task in tasks { await task.value }
        }
    }

    /// Records an error's description, and its debug description (which shows every field).
    func append(_ error: any Error) {
        self.append("\(error)")
        self.append(String(reflecting: error))
    }
}
