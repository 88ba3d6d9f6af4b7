// SPDX-License-Identifier: MIT

import NIOSSL

extension TestCertificates {
    /// A server certificate issued by the test CA, with its private key.
    public enum Server: Sendable, Hashable {
        /// Valid for `localhost`, `127.0.0.1` and `::1` until 2120.
        case localhost
        /// Valid until 2120, but only for `wrong-host.invalid`: a client connecting to `localhost`
        /// or `127.0.0.1` sees a hostname mismatch.
        case wrongHost
        /// For `localhost`, `127.0.0.1` and `::1`, but it expired on 2001-01-01.
        case expired

        /// The certificate, in PEM.
        public var certificatePEM: String {
            switch self {
            case .localhost: TestCertificates.localhostCertificatePEM
            case .wrongHost: TestCertificates.wrongHostCertificatePEM
            case .expired: TestCertificates.expiredCertificatePEM
            }
        }

        /// Its private key, in PEM (public: a test fixture).
        public var privateKeyPEM: String {
            switch self {
            case .localhost: TestCertificates.localhostKeyPEM
            case .wrongHost: TestCertificates.wrongHostKeyPEM
            case .expired: TestCertificates.expiredKeyPEM
            }
        }

        /// A server TLS configuration presenting this certificate.
        func serverConfiguration() throws -> TLSConfiguration {
            let certificate = try NIOSSLCertificate(bytes: Array(self.certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(self.privateKeyPEM.utf8), format: .pem)
            return .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        }
    }
}
