// SPDX-License-Identifier: MIT

/// The data of the `message` event the app publishes.
struct PublishedMessage: Codable, Sendable, Equatable {
    var from: String
    var text: String
}
