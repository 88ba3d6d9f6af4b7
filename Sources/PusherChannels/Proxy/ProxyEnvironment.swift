// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxy environment's rules (see ``PusherClientConfiguration/ProxySetting/environment``), as pure
/// functions of the variables; ``process()`` reads them from the process at the edge.
package enum ProxyEnvironment {
    /// The variables the rules read, in the order they are tried.
    package static let proxyVariables = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
    package static let exemptionVariables = ["NO_PROXY", "no_proxy"]

    /// The proxy variables of this process (only those: nothing else is read).
    package static func process() -> [String: String] {
        var environment: [String: String] = [:]
        for name in Self.proxyVariables + Self.exemptionVariables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The proxy for a connection to `host` under `environment`, or nil for a direct one (no
    /// proxy variable set, or `host` exempt through `NO_PROXY`).
    ///
    /// - Throws: `invalidConfiguration` naming the variable when its URL cannot be read (its
    ///   password never shown).
    package static func proxy(forHost host: String, environment: [String: String]) throws(PusherError)
        -> PusherProxy?
    {
        let found = Self.proxyVariables.lazy.compactMap { name in
            Self.value(name, in: environment).map { (name, $0) }
        }.first
        guard let (name, value) = found else { return nil }
        let exemptions = Self.exemptionVariables.lazy.compactMap { Self.value($0, in: environment) }.first ?? ""
        if Self.isExempt(host: host, noProxy: exemptions) { return nil }
        do {
            return try PusherProxy(url: value.contains("://") ? value : "http://\(value)")
        } catch {
            throw PusherError(.invalidConfiguration, "\(name): \(error.message)")
        }
    }

    /// Whether `noProxy` (a `NO_PROXY` value) exempts `host` from the proxy.
    package static func isExempt(host: String, noProxy: String) -> Bool {
        let host = Self.normalized(host)
        guard !host.isEmpty else { return false }
        let hostAddress = Self.ipBytes(host)
        for rawEntry in noProxy.split(separator: ",") {
            var entry = Self.normalized(Self.withoutPort(rawEntry.trimmingWhitespace()))
            if entry == "*" { return true }
            if entry.hasPrefix("*.") { entry.removeFirst() }
            guard !entry.isEmpty, entry != "." else { continue }
            if let address = hostAddress {
                // An IP address matches itself only (`0.1` is no suffix of `10.0.0.1`).
                if Self.ipBytes(entry) == address { return true }
            } else if entry.first == "." {
                if host.hasSuffix(entry) { return true }
            } else if host == entry || host.hasSuffix("." + entry) {
                return true
            }
        }
        return false
    }

    /// The bytes of an IPv4 or IPv6 address literal in network order (so that `::1` and `0::1`
    /// compare equal), nil for a name or anything else.
    static func ipBytes(_ text: String) -> [UInt8]? {
        // Raw bytes rather than `in_addr`/`in6_addr` values: those types are visible from more than
        // one C module (the C library's and SwiftNIO's), which a release build refuses to choose from.
        for (family, size) in [(AF_INET, 4), (AF_INET6, 16)] {
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = inet_pton(family, text, buffer.baseAddress) == 1 ? size : 0
            }
            if !bytes.isEmpty { return bytes }
        }
        return nil
    }

    /// A variable's value, nil when unset or blank.
    private static func value(_ name: String, in environment: [String: String]) -> String? {
        guard let value = environment[name]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        return String(value)
    }

    /// Lower case, without brackets around an IPv6 address or a trailing dot.
    private static func normalized(_ host: some StringProtocol) -> String {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") && host.count > 1 { host.removeLast() }
        return host
    }

    /// An entry without its `:port`: `[::1]:80` → `[::1]`, `example.com:443` → `example.com`; an
    /// IPv6 address without brackets (more than one colon) is left whole.
    private static func withoutPort(_ entry: Substring) -> Substring {
        if entry.first == "[", let close = entry.firstIndex(of: "]") { return entry[...close] }
        let colons = entry.filter { $0 == ":" }.count
        if colons == 1, let colon = entry.firstIndex(of: ":") { return entry[..<colon] }
        return entry
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> Substring {
        let text = Substring(self)
        guard let start = text.firstIndex(where: { !$0.isWhitespace }) else { return text[text.endIndex...] }
        let end = text.lastIndex(where: { !$0.isWhitespace }) ?? start
        return text[start...end]
    }
}
