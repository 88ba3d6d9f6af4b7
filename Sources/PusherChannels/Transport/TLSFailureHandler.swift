// SPDX-License-Identifier: MIT

import NIOCore
import NIOSSL
import PusherCore

/// Sits right behind the TLS handler and turns its handshake and certificate errors into a
/// readable `PusherError` with code `tlsFailed` naming the host and the reason (see
/// ``PusherError/tlsFailure(_:host:peerCertificate:now:)``), so the rest of the pipeline and the
/// client see that instead of BoringSSL's error stack. Other errors pass unchanged.
final class TLSFailureHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let host: String

    init(host: String) {
        self.host = host
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a failed verification BoringSSL still holds the certificate it was shown.
        let certificate = try? context.pipeline.syncOperations.nioSSL_peerCertificate()
        context.fireErrorCaught(PusherError.tlsFailure(error, host: self.host, peerCertificate: certificate) ?? error)
    }
}
