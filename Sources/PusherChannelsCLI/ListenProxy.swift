// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Listen {
    /// `--proxy` as the client's setting: that proxy, or the environment's without it.
    func proxySetting() throws(CLIError) -> PusherClientConfiguration.ProxySetting {
        guard let proxy else { return .environment }
        do {
            return .proxy(try PusherProxy(url: proxy))
        } catch {
            throw CLIError("--proxy: \(error.message)")
        }
    }

    /// A `--proxy` (or, without it, an environment proxy URL) that cannot be read is a usage error;
    /// the message never shows the password.
    func validateProxy() throws {
        do throws(PusherError) {
            if let proxy {
                _ = try PusherProxy(url: proxy)
            } else {
                // Only for hosts the environment proxy applies to: NO_PROXY may exempt them all.
                let environment = ProxyEnvironment.process()
                for host in self.proxiedHosts() {
                    _ = try ProxyEnvironment.proxy(forHost: host, environment: environment)
                }
            }
        } catch {
            throw ValidationError(self.proxy == nil ? error.message : "--proxy: \(error.message)")
        }
    }

    /// The hosts the client connects to: every `--host` (or the cluster's) and the auth endpoints'.
    private func proxiedHosts() -> [String] {
        var hosts = self.hosts.compactMap { text in try? HostArgument.parse(text).host }
        if let cluster { hosts.append(PusherEndpoint.cluster(cluster, useTLS: self.tls).host) }
        for endpoint in [self.authEndpoint, self.userAuthEndpoint] {
            if let host = endpoint.flatMap({ URL(string: $0) })?.host { hosts.append(host) }
        }
        return hosts
    }
}
