// SPDX-License-Identifier: MIT

import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `doctor` reaches a host: directly or through a proxy, and where the proxy comes from, in
/// words (the proxy's credentials never shown).
enum DoctorRoute {
    /// ", through the proxy http://proxy:3128 (HTTPS_PROXY)", ", directly (NO_PROXY exempts it from
    /// HTTPS_PROXY)", or "" when no proxy is set anywhere.
    static func describe(host: String, settings: DoctorSettings) -> String {
        switch settings.proxy {
        case .direct:
            return ""
        case .proxy(let proxy):
            return ", through the proxy \(proxy) (--proxy)"
        case .environment:
            let environment = ProxyEnvironment.process()
            guard
                let variable = ProxyEnvironment.proxyVariables.first(where: {
                    environment[$0].map { !$0.trimmingWhitespace().isEmpty } ?? false
                })
            else { return "" }
            guard let proxy = try? ProxyEnvironment.proxy(forHost: host, environment: environment) else {
                return ", directly (NO_PROXY exempts \(host) from \(variable))"
            }
            return ", through the proxy \(proxy) (from \(variable) of the environment)"
        }
    }
}

extension DoctorRoute {
    /// The host of `url`, for ``describe(host:settings:)``.
    static func host(of url: String) -> String {
        var host = URLComponents(string: url)?.host ?? url
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }
}
