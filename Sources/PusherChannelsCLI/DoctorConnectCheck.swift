// SPDX-License-Identifier: MIT

import PusherChannels

/// The `connect` check: the WebSocket handshake and `pusher:connection_established`, on the
/// client the auth checks then subscribe with.
enum DoctorConnectCheck {
    /// Waits (at most ``DoctorDeadline/request``) for `client` to connect or fail; returns the
    /// finding and the socket id of the connection. A failed connection is not retried.
    static func run(_ client: PusherClient, settings: DoctorSettings) async -> (DoctorFinding, socketID: String?) {
        let url =
            (try? settings.endpoint.url(
                key: settings.key, client: PusherClient.clientName, version: PusherClient.version))
            .map { String($0.prefix { $0 != "?" }) } ?? HostArgument.describe(settings.endpoint)
        let route = DoctorRoute.describe(host: settings.endpoint.host, settings: settings)
        let outcome = await DoctorDeadline.within { () async -> ConnectionState? in
            for await state in client.connectionStates {
                switch state {
                case .connected, .failed, .reconnecting: return state
                default: continue
                }
            }
            return nil
        }
        let state: ConnectionState?
        switch outcome {
        case .finished(let finished): state = finished
        case .timedOut: state = nil
        }
        switch state {
        case .connected(let socketID)?:
            return (.ok(.connect, "\(url)\(route): pusher:connection_established, socket_id \(socketID)"), socketID)
        case .failed(let error)?, .reconnecting(_, _, let error)?:
            // No second attempt: the one failure is what the check reports.
            await client.disconnect()
            return (.fail(.connect, "\(url)\(route): \(Self.explain(error, settings: settings))"), nil)
        default:
            await client.disconnect()
            return (
                .fail(
                    .connect,
                    "\(url)\(route): no pusher:connection_established within 10 s; is this a Pusher Channels server (or a proxy that holds WebSocket upgrades)?"
                ), nil
            )
        }
    }

    /// What a failed connection says, with its likely cause.
    static func explain(_ error: PusherError, settings: DoctorSettings) -> String {
        if let code = error.closeCode, code >= 4000 {
            let advice = DoctorAdvice.closeCode(code, settings: settings)
            return "the server closed the connection with \(code) (\(error.message))"
                + (advice.isEmpty ? "" : ": \(advice)")
        }
        switch error.code {
        case .handshakeTimeout:
            return "\(error.message): is this a Pusher Channels server (or a proxy that holds WebSocket upgrades)?"
        case .proxyFailed:
            return "\(error.message): check the proxy (--proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY)"
        case .invalidConfiguration:
            return error.message
        default:
            return DoctorAdvice.transport(error, settings: settings)
        }
    }
}
