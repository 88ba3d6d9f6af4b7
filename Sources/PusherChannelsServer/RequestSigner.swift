// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
import PusherCrypto
#else
import Foundation
#endif

/// Signs HTTP API requests: adds `auth_key`, `auth_timestamp`, `auth_version=1.0` and `body_md5`
/// (of the exact body bytes), and `auth_signature` = hex HMAC-SHA256(secret,
/// `METHOD\nPATH\nQUERY`), where QUERY is every other parameter, names lowercased and sorted,
/// `name=value` joined by `&`, values not escaped.
package struct RequestSigner: Sendable {
    package let key: String
    private let secret: String

    /// The parameters the signer sets; a request that already has one is refused.
    static func isReserved(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.hasPrefix("auth_") || name == "body_md5"
    }

    package init(key: String, secret: String) {
        self.key = key
        self.secret = secret
    }

    /// `request` signed at `timestamp` (seconds since the epoch).
    ///
    /// - Throws: ``PusherServerError`` `invalidArgument` when the request already has an `auth_*` or
    ///   `body_md5` parameter: those are the signer's alone.
    package func sign(_ request: PusherAPIRequest, timestamp: Int) throws(PusherServerError) -> SignedRequest {
        var parameters = [PusherAPIRequest.Parameter]()
        parameters.reserveCapacity(request.query.count + 5)
        for parameter in request.query {
            guard !Self.isReserved(parameter.name) else {
                throw PusherServerError(
                    .invalidArgument, "the query parameter \(parameter.name) is set by the signer and cannot be given")
            }
            parameters.append(.init(parameter.name.lowercased(), parameter.value))
        }
        parameters.append(.init("auth_key", self.key))
        parameters.append(.init("auth_timestamp", String(timestamp)))
        parameters.append(.init("auth_version", "1.0"))
        parameters.append(.init("body_md5", MD5Digest.hex(request.body)))
        parameters.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let query = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let stringToSign = "\(request.method.rawValue)\n\(request.path)\n\(query)"
        let signature = HMACSHA256.hex(key: self.secret, message: stringToSign)
        let index = parameters.firstIndex { $0.name > "auth_signature" } ?? parameters.endIndex
        parameters.insert(.init("auth_signature", signature), at: index)
        return SignedRequest(
            method: request.method, path: request.path, parameters: parameters, body: request.body,
            stringToSign: stringToSign, signature: signature)
    }

    /// Seconds since the epoch, now.
    package static func currentTimestamp() -> Int {
        Int(Date().timeIntervalSince1970)
    }
}
