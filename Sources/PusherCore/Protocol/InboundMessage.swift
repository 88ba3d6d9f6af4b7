// SPDX-License-Identifier: MIT

/// One inbound WebSocket message as a transport hands it over: decoded (on the transport's own
/// thread, from its read buffer), or the typed error that says why it is not a protocol message.
/// A bad message takes its place in the batch, so errors are reported in order and the messages
/// around it still flow.
package enum InboundMessage: Sendable, Hashable {
    case message(PusherMessage)
    /// A message that is not a valid protocol message (not JSON, no event name, a binary frame).
    /// Boxed (`indirect`): the error is large and rare, and a batch is an array of these, so a
    /// message takes one word instead of the error's size.
    indirect case malformed(PusherError)

    /// Decodes the UTF-8 bytes of a text message, reusing repeated names from `names`.
    package init(parsing bytes: UnsafeRawBufferPointer, names: inout RecentNames) {
        do throws(PusherError) {
            self = .message(try PusherMessage(parsing: bytes, names: &names))
        } catch {
            self = .malformed(error)
        }
    }

    /// Decodes a text message.
    package init(parsing text: String) {
        do throws(PusherError) {
            self = .message(try PusherMessage(parsing: text))
        } catch {
            self = .malformed(error)
        }
    }

    /// A text message, decoded (for transports and tests that have the text at hand).
    package static func text(_ text: String) -> InboundMessage { InboundMessage(parsing: text) }

    /// A binary message: binary frames are not part of the protocol.
    package static var binary: InboundMessage {
        .malformed(PusherError(.malformedMessage, "binary frames are not part of the protocol"))
    }
}
