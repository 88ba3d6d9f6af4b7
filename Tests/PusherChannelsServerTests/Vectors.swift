// SPDX-License-Identifier: MIT

import Foundation
import PusherChannelsServer
import Testing

/// The known-answer files in Vectors/ (excluded from the target), read at test time: copies of ../shared/vectors
/// (pusher-http-api.json and pusher-official.json, made with the official Python server library).
enum Vectors {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static let key = "278d425bdf160c739803"
    static let secret = "7ad3773142a6692b25b8"
    static let masterKeyBase64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    /// The parsed file `name` of Vectors/.
    static func load(_ name: String) throws -> JSONValue {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Vectors")
            .appendingPathComponent(name)
        return try JSONValue(parsing: String(contentsOf: url, encoding: .utf8))
    }

    /// The non-empty array at `path` (`["webhooks", "valid"]`).
    static func entries(_ file: String, _ path: String...) throws -> [JSONValue] {
        var value = try load(file)
        for key in path {
            guard let next = value[key] else { throw Missing(description: "\(file) has no \(path)") }
            value = next
        }
        guard case .array(let entries) = value, !entries.isEmpty else {
            throw Missing(description: "\(file) \(path) is not a non-empty array")
        }
        return entries
    }
}

extension JSONValue {
    /// The string at `key`; when there is none, a recorded issue and "".
    func text(_ key: String) -> String {
        guard let value = self[key]?.stringValue else {
            Issue.record("the vector has no string \(key)")
            return ""
        }
        return value
    }
}
