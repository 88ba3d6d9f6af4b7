// SPDX-License-Identifier: MIT

import NIOCore
import PusherChannels

/// The event frames of a ``PusherLoadServer``, encoded once: WebSocket text frames back to back in
/// one buffer, round-robin over the configured channels, so that sending events costs the server
/// nothing but handing out slices of that buffer.
struct PreEncodedEvents: Sendable {
    /// Whole frames back to back.
    let block: ByteBuffer
    /// Where each frame of `block` ends.
    let ends: [Int]

    /// About how many bytes `block` holds (at least one frame per channel).
    static let blockBytes = 256 * 1024

    init(_ configuration: PusherLoadServer.Configuration) throws(PusherError) {
        guard !configuration.channels.isEmpty else {
            throw PusherError(.invalidConfiguration, "the load server needs at least one channel")
        }
        guard configuration.payloadBytes >= 16 else {
            throw PusherError(.invalidConfiguration, "the load server's payload is at least 16 bytes")
        }
        if configuration.encrypted {
            guard SecretBox.isAvailable else {
                throw PusherError(.encryptionUnavailable, "the load server has no secretbox for encrypted events")
            }
            guard configuration.encryptionKey.count == 32 else {
                throw PusherError(.invalidConfiguration, "the encryption key has 32 bytes")
            }
        }
        // The data clients hand out: {"payload":"xxx…"} of exactly `payloadBytes` bytes.
        let data = #"{"payload":""# + String(repeating: "x", count: configuration.payloadBytes - 14) + #""}"#
        let channels = configuration.channels
        var block = ByteBuffer()
        var ends: [Int] = []
        var index = 0
        // Whole rounds over the channels until the block is big enough.
        while index % channels.count != 0 || block.readableBytes < Self.blockBytes {
            let channel = channels[index % channels.count]
            let wireData = configuration.encrypted ? Self.seal(data, key: configuration.encryptionKey) : data
            let text =
                #"{"event":"# + Self.quoted(configuration.eventName) + #","channel":"# + Self.quoted(channel)
                + #","data":"# + Self.quoted(wireData) + "}"
            Self.writeFrame(opcode: 0x1, payload: Array(text.utf8), to: &block)
            ends.append(block.writerIndex)
            index += 1
        }
        self.block = block
        self.ends = ends
    }

    /// `text` as a JSON string literal (the texts here hold no control characters).
    static func quoted(_ text: String) -> String {
        var output = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            default: output.unicodeScalars.append(character)
            }
        }
        return output + "\""
    }

    /// Appends an unmasked, final server frame.
    static func writeFrame(opcode: UInt8, payload: some Collection<UInt8>, to buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | opcode)
        let length = payload.count
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        buffer.writeBytes(payload)
    }

    /// One text frame holding `text`.
    static func textFrame(_ text: String) -> ByteBuffer {
        var buffer = ByteBuffer()
        Self.writeFrame(opcode: 0x1, payload: Array(text.utf8), to: &buffer)
        return buffer
    }

    /// `{"nonce":…,"ciphertext":…}` for `plaintext` sealed with `key` under a random nonce.
    private static func seal(_ plaintext: String, key: [UInt8]) -> String {
        // Cannot fail: the backend and the key's size were checked.
        EncryptedPayload.seal(plaintext, key: key) ?? plaintext
    }
}
