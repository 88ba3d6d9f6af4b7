// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Event data given as an `Encodable` value, encoded once to the JSON text that is sent.
enum EventData {
    /// `value` as JSON text (a plain `JSONEncoder`, slashes not escaped).
    ///
    /// - Throws: ``PusherServerError`` `invalidArgument` when encoding fails; the message names the
    ///   value's type, never its contents.
    static func json(_ value: some Encodable) throws(PusherServerError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw PusherServerError(
                .invalidArgument, "the event data (\(type(of: value))) could not be encoded as JSON")
        }
    }
}
