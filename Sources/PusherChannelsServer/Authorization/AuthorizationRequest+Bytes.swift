// SPDX-License-Identifier: MIT

import NIOCore

/// Form bodies as frameworks hand them over: bytes.
extension AuthorizationRequest {
    /// Decodes and validates a form body given as bytes (`[UInt8]`, `Data`, a `ByteBuffer`'s
    /// `readableBytesView`, …).
    ///
    /// - Parameter formBody: The request body, `application/x-www-form-urlencoded`, as received.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` when the
    ///   bytes are not UTF-8, and as the `String` initializer.
    public init(formBody: some Collection<UInt8>) throws(PusherServerError) {
        guard let text = String(validating: formBody, as: UTF8.self) else {
            throw PusherServerError(.invalidArgument, "the authorization request is not UTF-8")
        }
        try self.init(formBody: text)
    }

    /// Decodes and validates a form body in a `ByteBuffer` (its readable bytes).
    ///
    /// - Parameter formBody: The request body, as received.
    /// - Throws: As the `String` initializer.
    public init(formBody: ByteBuffer) throws(PusherServerError) {
        try self.init(formBody: formBody.readableBytesView)
    }
}
