// SPDX-License-Identifier: MIT

import PusherChannels

/// The likely causes and fixes `doctor` adds to what it saw.
enum DoctorAdvice {
    /// A TLS failure (as ``PusherError/tlsFailure(_:host:peerCertificate:now:)`` words it) with what
    /// to do about it.
    static func tls(_ message: String) -> String {
        if message.contains("not trusted") {
            return message
                + "; if the server's certificate comes from a private certificate authority, give that CA with --ca-file"
        }
        if message.contains("hostname mismatch") || message.contains("not valid for") {
            return message
                + "; connect with a name the certificate lists, or give the server a certificate for this name"
        }
        if message.contains("expired") || message.contains("not valid before") {
            return message + "; renew the server's certificate (or check this machine's clock)"
        }
        if message.contains("does the server speak TLS") {
            return message + " (plain ws:// and http:// need --no-tls)"
        }
        return message
    }

    /// What a WebSocket close code or `pusher:error` code means, and what to change.
    static func closeCode(_ code: Int, settings: DoctorSettings) -> String {
        switch code {
        case 4001:
            let host = settings.endpoint.host
            guard host.hasPrefix("ws-") && host.hasSuffix(".pusher.com") else {
                return
                    "the key \(settings.key) is unknown at \(HostArgument.describe(settings.endpoint)): check --key, and that this server is configured with the app"
            }
            return
                "the key \(settings.key) is unknown at the cluster \(host.dropFirst(3).dropLast(11)) (--cluster): check --key, and that the app is in this cluster (its dashboard's App Keys page names the cluster)"
        case 4003: return "the app is disabled"
        case 4004: return "the app is over its connection quota"
        case 4005: return "the server has no such path: check --host (a path prefix is not supported here)"
        case 4006: return "the server refuses protocol version 7"
        case 4007: return "the server does not speak this protocol version"
        case 4009: return "the connection was not authorized"
        default: return code >= 4000 && code < 4100 ? "the server refuses the connection for good" : ""
        }
    }

    /// What a transport failure means, when it is a common one.
    static func transport(_ error: PusherError, settings: DoctorSettings) -> String {
        if error.code == .tlsFailed { return Self.tls(error.message) }
        let text = "\(error)"
        let hostPort = HostArgument.describe(settings.endpoint)
        if text.contains("onnection refused") || text.contains("ECONNREFUSED") {
            return "\(error.message): nothing listens at \(hostPort); check --host, --port and --no-tls"
        }
        if text.contains("resolve") || text.contains("NXDOMAIN") {
            return "\(error.message): the name \(settings.endpoint.host) does not resolve; check --host or --cluster"
        }
        return error.message
    }
}
