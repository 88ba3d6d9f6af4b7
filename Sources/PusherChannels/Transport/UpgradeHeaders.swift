// SPDX-License-Identifier: MIT

import PusherCore

/// The rules of the headers an application adds to the WebSocket upgrade request
/// (``PusherClientConfiguration/headers`` and ``PusherClientConfiguration/headersProvider``), and how the two
/// are merged.
package enum UpgradeHeaders {
    /// Header names the client sets itself (compared in lowercase); `sec-websocket-` is a prefix.
    static let reservedNames: Set<String> = ["host", "upgrade", "connection", "content-length", "transfer-encoding"]
    static let reservedPrefix = "sec-websocket-"

    /// Checks one header: its name is an HTTP token and not one of the client's own (`Host`,
    /// `Upgrade`, `Connection`, `Content-Length`, `Transfer-Encoding`, `Sec-WebSocket-*`, in any
    /// case), its value has no CR, LF or NUL. The error names the header, never its value.
    package static func check(name: String, value: String) throws(PusherError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
            throw PusherError(
                .invalidConfiguration,
                "invalid upgrade header name '\(PusherEndpoint.printable(name))': not an HTTP token")
        }
        let lowercased = name.lowercased()
        guard !Self.reservedNames.contains(lowercased), !lowercased.hasPrefix(Self.reservedPrefix) else {
            throw PusherError(
                .invalidConfiguration,
                "invalid upgrade header '\(name)': Host, Upgrade, Connection, Content-Length, Transfer-Encoding and Sec-WebSocket-* are the client's own"
            )
        }
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw PusherError(
                .invalidConfiguration, "invalid value of the upgrade header '\(name)': it has CR, LF or NUL")
        }
    }

    /// Checks every header of `headers`, and that no two names differ only in case.
    package static func check(_ headers: [String: String]) throws(PusherError) {
        var seen: Set<String> = []
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            try Self.check(name: name, value: value)
            guard seen.insert(name.lowercased()).inserted else {
                throw PusherError(
                    .invalidConfiguration, "the upgrade header '\(name)' is given twice (names are case-insensitive)")
            }
        }
    }

    /// The headers of one attempt: `configured` with `provided` replacing those of the same name (any
    /// case), in a stable order (by lowercased name). Checks `provided` (`configured` was checked
    /// with the options).
    package static func merged(
        _ configured: [String: String], _ provided: [String: String]
    ) throws(PusherError) -> [(name: String, value: String)] {
        try Self.check(provided)
        var byName: [String: (name: String, value: String)] = [:]
        for (name, value) in configured { byName[name.lowercased()] = (name, value) }
        for (name, value) in provided { byName[name.lowercased()] = (name, value) }
        return byName.sorted { $0.key < $1.key }.map(\.value)
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}
