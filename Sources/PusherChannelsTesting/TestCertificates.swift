// SPDX-License-Identifier: MIT

/// Certificates for testing `wss://` against ``FakePusherServer`` in its TLS mode (see
/// ``FakePusherServer/Configuration/tls``): a private test certificate authority (CA) and server
/// certificates it issued.
///
/// They are test fixtures only: their private keys are public. They were made once with
/// `scripts/make-test-certificates` (EC P-256 keys; the CA and the valid certificates run from
/// 2020 to 2120) and are committed in `TestCertificates+PEM.swift`.
///
/// ```swift
/// try await FakePusherServer.withRunning(configuration: .init(tls: .localhost)) { server in
///     var configuration = PusherClientConfiguration(host: "localhost", port: server.port)
///     try configuration.trustCertificateAuthorities(pem: TestCertificates.certificateAuthorityPEM)
///     // … a PusherClient with these configuration connects over wss://
/// }
/// ```
public enum TestCertificates {
    /// The test CA's certificate, in PEM. It issued every ``Server`` certificate.
    public static var certificateAuthorityPEM: String { Self.caCertificatePEM }
}
