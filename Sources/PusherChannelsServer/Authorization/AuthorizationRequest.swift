// SPDX-License-Identifier: MIT

import NIOCore
import PusherCore

/// What a client posts to your authorization endpoint: the form body
/// `socket_id=…&channel_name=…` (a user sign-in sends `socket_id` only), decoded and validated.
///
/// ```swift
/// let request = try AuthorizationRequest(formBody: body)
/// let response = try server.authorize(request, member: PresenceMember(userID: user.id))
/// // answer 200 with response.json, Content-Type: application/json
/// ```
public struct AuthorizationRequest: Sendable, Hashable {
    /// The connection's `socket_id`, checked to be `digits.digits` (at most 64 bytes).
    public var socketID: String
    /// The `channel_name` to authorize, checked to be a channel name Pusher accepts; `nil` for a
    /// user sign-in.
    public var channelName: String?
    /// The body's other fields (the extra parameters your client sends), decoded; the last value
    /// of a repeated name.
    public var parameters: [String: String]

    /// Decodes and validates a form body.
    ///
    /// Names and values are percent-decoded, with `+` as a space.
    ///
    /// - Parameter formBody: The request body, `application/x-www-form-urlencoded`.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` when the
    ///   body is not a valid form, `socket_id` is missing, repeated or not `digits.digits`, or
    ///   `channel_name` is repeated, empty, longer than 164 bytes or has characters Pusher does
    ///   not allow (letters, digits and `_ - = @ , . ;`).
    public init(formBody: String) throws(PusherServerError) {
        let form: FormBody
        do {
            form = try FormBody(parsing: formBody)
        } catch {
            throw PusherServerError(.invalidArgument, "the authorization request is not a valid form: \(error.reason)")
        }
        let socketIDs = form.values(named: "socket_id")
        guard socketIDs.count == 1, let socketID = socketIDs.first else {
            throw PusherServerError(
                .invalidArgument,
                socketIDs.isEmpty
                    ? "the authorization request has no socket_id" : "the authorization request repeats socket_id"
            )
        }
        try RequestRules.checkSocketID(socketID)
        let channelNames = form.values(named: "channel_name")
        guard channelNames.count <= 1 else {
            throw PusherServerError(.invalidArgument, "the authorization request repeats channel_name")
        }
        if let channelName = channelNames.first {
            do {
                _ = try ChannelName(validating: channelName)
            } catch {
                throw PusherServerError(.invalidArgument, "invalid channel_name: \(error.message)")
            }
        }
        self.socketID = socketID
        self.channelName = channelNames.first
        var parameters: [String: String] = [:]
        for field in form.fields where field.name != "socket_id" && field.name != "channel_name" {
            parameters[field.name] = field.value
        }
        self.parameters = parameters
    }
}

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
