// SPDX-License-Identifier: MIT

import NIOSSL
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PusherError {
    /// A TLS failure in plain words, naming the host: an untrusted certificate, one for another
    /// host, an expired one, or the handshake failing otherwise. Nil when `error` is not a TLS
    /// handshake or certificate error (a connection that merely dropped, for instance).
    ///
    /// - Parameters:
    ///   - peerCertificate: The server's certificate as far as the handshake got, to tell an
    ///     expired certificate from an untrusted one.
    ///   - now: Seconds since 1970, for the same (the system's time by default).
    package static func tlsFailure(
        _ error: any Error,
        host: String,
        peerCertificate: NIOSSLCertificate? = nil,
        now: Int = Int(Date().timeIntervalSince1970)
    ) -> PusherError? {
        guard let reason = Self.tlsReason(error, host: host, peerCertificate: peerCertificate, now: now) else {
            return nil
        }
        return PusherError(.tlsFailed, "TLS handshake with \(host) failed: \(reason)")
    }

    private static func tlsReason(_ error: any Error, host: String, peerCertificate: NIOSSLCertificate?, now: Int)
        -> String?
    {
        if let error = error as? NIOSSLExtraError {
            switch error {
            case .failedToValidateHostname:
                return "the server's certificate is not valid for \(host) (hostname mismatch)"
            case .serverHostnameImpossibleToMatch, .invalidSNIHostname, .cannotUseIPAddressInSNI:
                return "\(host) cannot be used as a TLS server name"
            default:
                return nil
            }
        }
        guard let error = error as? NIOSSLError else { return nil }
        switch error {
        case .handshakeFailed(let failure):
            let reasons = Self.reasons(failure)
            if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
                return Self.certificateReason(peerCertificate, now: now)
            }
            if case .sslError(let stack) = failure, stack == [.eofDuringHandshake] {
                return "the server closed the connection during the handshake"
            }
            let words = reasons.map { $0.lowercased().replacing("_", with: " ") }
            let hint = reasons.contains("WRONG_VERSION_NUMBER") ? "; does the server speak TLS on this port?" : ""
            return "handshake failure (\(words.isEmpty ? "no reason given" : words.joined(separator: ", "))\(hint))"
        case .noCertificateToValidate:
            return "the server sent no certificate"
        case .unableToValidateCertificate, .cannotFindPeerIP, .cannotMatchULabel:
            return "the server's certificate could not be checked against \(host)"
        default:
            return nil
        }
    }

    /// Why a certificate that failed verification is refused: expired, not yet valid, or untrusted.
    private static func certificateReason(_ certificate: NIOSSLCertificate?, now: Int) -> String {
        if let certificate {
            if Int(certificate.notValidAfter) < now {
                return "the server's certificate expired on \(Self.day(Int(certificate.notValidAfter)))"
            }
            if Int(certificate.notValidBefore) > now {
                return "the server's certificate is not valid before \(Self.day(Int(certificate.notValidBefore)))"
            }
        }
        return
            "the server's certificate is not trusted (self-signed, or issued by a certificate authority that is not trusted)"
    }

    /// BoringSSL's reason names in an error (such as `CERTIFICATE_VERIFY_FAILED`), without the
    /// codes, source paths and line numbers around them.
    private static func reasons(_ error: BoringSSLError) -> [String] {
        let stack: NIOBoringSSLErrorStack
        switch error {
        case .sslError(let errors), .unknownError(let errors), .invalidSNIName(let errors),
            .failedToSetALPN(let errors):
            stack = errors
        default:
            return ["\(error)"]
        }
        // Each reads "Error: CODE error:HEX:LIBRARY:FUNCTION:REASON at FILE:LINE".
        return stack.map { entry in
            let text = entry.description
            guard let start = text.firstRange(of: "error:") else { return text }
            var body = text[start.upperBound...]
            if let location = body.firstRange(of: " at ") { body = body[..<location.lowerBound] }
            return body.split(separator: ":").last.map(String.init) ?? text
        }
    }

    /// `seconds` since 1970 as a UTC day, such as 2001-01-01.
    private static func day(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601.year().month().day())
    }
}
