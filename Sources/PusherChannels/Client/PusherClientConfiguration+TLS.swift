// SPDX-License-Identifier: MIT

import NIOSSL
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PusherClientConfiguration {
    /// Trusts the certificate authorities (CAs) in `pem` for `wss://`: a server whose certificate
    /// one of them issued is accepted. Use it for a server with a certificate from a private CA.
    ///
    /// ```swift
    /// var configuration = PusherClientConfiguration(host: "pusher.internal.example", port: 6001)
    /// try configuration.trustCertificateAuthorities(pemFile: "/etc/pusher/internal-ca.pem")
    /// // or, with the PEM text at hand:
    /// try configuration.trustCertificateAuthorities(pem: internalCAPEM, keepingSystemTrustStore: false)
    /// ```
    ///
    /// It adjusts ``tlsConfiguration`` (starting from NIOSSL's client defaults when it is nil);
    /// calls add up. The server's certificate must still name the host connected to (or the IP
    /// address, for an IP host), and be valid today.
    ///
    /// - Parameters:
    ///   - pem: One or more certificates, each between `-----BEGIN CERTIFICATE-----` and
    ///     `-----END CERTIFICATE-----`; text around them is ignored.
    ///   - keepingSystemTrustStore: Whether the system's certificate authorities stay trusted
    ///     (the default). With `false`, only the CAs given to this method are trusted: the client
    ///     then connects only to your servers.
    /// - Throws: `PusherError` with code `invalidConfiguration` when `pem` holds no certificate
    ///   or an unreadable one.
    public mutating func trustCertificateAuthorities(pem: String, keepingSystemTrustStore: Bool = true)
        throws(PusherError)
    {
        try self.trust(Array(pem.utf8), source: "the PEM text", keepingSystemTrustStore: keepingSystemTrustStore)
    }

    /// Trusts the certificate authorities in the PEM file at `path` for `wss://`; see
    /// ``trustCertificateAuthorities(pem:keepingSystemTrustStore:)``. The file is read now.
    ///
    /// - Throws: `PusherError` with code `invalidConfiguration` when the file cannot be read or
    ///   holds no certificate.
    public mutating func trustCertificateAuthorities(pemFile path: String, keepingSystemTrustStore: Bool = true)
        throws(PusherError)
    {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw PusherError(.invalidConfiguration, "cannot read the certificate authority file \(path)")
        }
        try self.trust(Array(contents), source: path, keepingSystemTrustStore: keepingSystemTrustStore)
    }

    private mutating func trust(_ pem: [UInt8], source: String, keepingSystemTrustStore: Bool) throws(PusherError) {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(pem)
        } catch {
            throw PusherError(.invalidConfiguration, "\(source) holds a certificate that cannot be read")
        }
        guard !certificates.isEmpty else {
            throw PusherError(.invalidConfiguration, "\(source) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        var configuration = self.tlsConfiguration ?? .makeClientConfiguration()
        if keepingSystemTrustStore {
            configuration.additionalTrustRoots.append(.certificates(certificates))
        } else if case .certificates(let trusted) = configuration.trustRoots {
            configuration.trustRoots = .certificates(trusted + certificates)
        } else {
            configuration.trustRoots = .certificates(certificates)
        }
        self.tlsConfiguration = configuration
    }
}
