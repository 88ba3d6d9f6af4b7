// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

extension Listen {
    /// `--proxy` as the client's setting: that proxy, or the environment's without it.
    func proxySetting() throws(CLIError) -> PusherClientOptions.ProxySetting {
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
                // No host is exempt from "": this reads the URL of the variable that applies.
                _ = try ProxyEnvironment.proxy(forHost: "", environment: ProxyEnvironment.process())
            }
        } catch {
            throw ValidationError(self.proxy == nil ? error.message : "--proxy: \(error.message)")
        }
    }
}
