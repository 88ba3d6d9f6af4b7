// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `listen`'s warnings about what would travel unencrypted.
enum ConnectionSecurity {
    /// Warnings for standard error: `--no-tls` towards Pusher's own clusters, and auth endpoints
    /// reached over plain HTTP beyond this machine (their requests carry the auth headers).
    static func warnings(usesTLS: Bool, cluster: String?, authEndpoints: [(option: String, url: String)]) -> [String] {
        var warnings: [String] = []
        if !usesTLS && cluster != nil {
            warnings.append("warning: --no-tls with --cluster: events and subscriptions travel unencrypted to Pusher")
        }
        for (option, text) in authEndpoints {
            guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host,
                !Self.isLoopback(host)
            else { continue }
            warnings.append(
                "warning: \(option) uses plain http:// to \(host): the auth requests and their headers travel unencrypted"
            )
        }
        return warnings
    }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or ::1.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let lowered = bare.lowercased()
        if lowered == "localhost" || lowered.hasSuffix(".localhost") { return true }
        if lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
