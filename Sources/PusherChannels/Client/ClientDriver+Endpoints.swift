// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension ClientDriver {
    /// The endpoints of `configuration` with their URLs, or why the configuration are invalid or cannot form a URL.
    static func endpointRotation(
        configuration: PusherClientConfiguration, key: String
    ) -> Result<EndpointRotation<ConnectionEndpoint>, PusherError> {
        Result { () throws(PusherError) in
            try configuration.validate()
            let first = try ConnectionEndpoint(configuration.endpoint, key: key)
            let fallbacks = try configuration.fallbackEndpoints.map { endpoint throws(PusherError) in
                try ConnectionEndpoint(endpoint, key: key)
            }
            return EndpointRotation(first: first, fallbacks: fallbacks)
        }
    }

    /// The endpoint of the attempt being opened, moving on to the next one when the previous attempt
    /// was never established.
    mutating func nextEndpoint() -> ConnectionEndpoint? {
        guard let attempt = self.endpointRotation?.nextAttempt() else { return nil }
        if attempt.movedOn {
            var metadata: Logger.Metadata = ["pusher.host": "\(attempt.endpoint.endpoint.host)"]
            if let port = attempt.endpoint.endpoint.port { metadata["pusher.port"] = "\(port)" }
            self.log(.notice, "trying the next endpoint", metadata)
        }
        return attempt.endpoint
    }
}
