// SPDX-License-Identifier: MIT

/// The fields of one received message, in one immutable object: a ``PusherMessage`` and the
/// ``ChannelEvent`` made from it share it, so handing an event on (into an action, a batch, a
/// consumer's buffer) retains one reference instead of copying each string.
///
/// The data's UTF-8 bytes live in the object itself, after its header: one allocation per message,
/// written by the parser straight from the frame (unescaped). A `String` of the data is made only
/// when someone asks for ``data``; ``withDataBytes(_:)`` reads the bytes without one.
///
/// A value holding one reference to that object (`ManagedBuffer` cannot be `Sendable` itself).
/// `@unchecked Sendable`: the object's header and bytes are written in two places only, both
/// before the object is handed to anyone: ``make(event:channel:data:userID:)`` in this file, and
/// the parser (`PusherMessage.parseEnvelope`), which writes the bytes into what
/// ``makeForData(capacity:)`` returns and the header with
/// ``finish(event:channel:userID:dataCount:isValidUTF8:isASCII:)`` on the object it has just made.
/// Nothing writes either afterwards (`storage` is private, and no other code calls `finish`), so
/// any number of threads may read them at once. The header is only read through a pointer, never
/// through `ManagedBuffer.header`.
package struct MessageFields: @unchecked Sendable {
    final class Storage: ManagedBuffer<Header, UInt8> {}

    private let storage: Storage

    private init(storage: Storage) {
        self.storage = storage
    }

    /// How many bytes the object has room for after its header (for tests).
    var dataCapacity: Int { self.storage.capacity }

    /// Whether both share one object (and so hold the same values).
    package func isIdentical(to other: MessageFields) -> Bool { self.storage === other.storage }

    package struct Header {
        var event: String
        var channel: String?
        var userID: String?
        /// How many bytes of data follow the header; -1 when the message had no data.
        var dataCount: Int
        /// The data bytes are known to be valid UTF-8 (else they are checked, and repaired with
        /// U+FFFD, as a `String` is made of them).
        var dataIsValidUTF8: Bool
        var dataIsASCII: Bool
        var approximateByteCount: Int
    }

    package var event: String { self.storage.withUnsafeMutablePointerToHeader { $0.pointee.event } }
    package var channel: String? { self.storage.withUnsafeMutablePointerToHeader { $0.pointee.channel } }
    package var userID: String? { self.storage.withUnsafeMutablePointerToHeader { $0.pointee.userID } }

    /// About how many bytes the fields keep alive: every string, plus a fixed overhead of 64
    /// (computed once, so that buffers that count bytes do not touch each string again).
    package var approximateByteCount: Int {
        self.storage.withUnsafeMutablePointerToHeader { $0.pointee.approximateByteCount }
    }

    /// The number of UTF-8 bytes of data; nil without data.
    package var dataByteCount: Int? {
        let count = self.storage.withUnsafeMutablePointerToHeader { $0.pointee.dataCount }
        return count < 0 ? nil : count
    }

    /// The data as text (a new `String` each time); nil when the message had none.
    package var data: String? {
        self.storage.withUnsafeMutablePointers { header, bytes in
            let count = header.pointee.dataCount
            guard count >= 0 else { return nil }
            return JSONEscaping.string(
                UnsafeBufferPointer(start: bytes, count: count), isValidUTF8: header.pointee.dataIsValidUTF8,
                isASCII: header.pointee.dataIsASCII)
        }
    }

    /// Runs `body` over the data's UTF-8 bytes, where they lie (invalid UTF-8 repaired with U+FFFD,
    /// in a copy); nil (without running it) when the message had no data. The bytes are valid only
    /// inside `body`.
    package func withDataBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R? {
        let (count, isValidUTF8) = self.storage.withUnsafeMutablePointerToHeader {
            ($0.pointee.dataCount, $0.pointee.dataIsValidUTF8)
        }
        guard count >= 0 else { return nil }
        // The bytes stay where they are for as long as the object lives: kept alive to the end.
        defer { withExtendedLifetime(self.storage) {} }
        let bytes = self.storage.withUnsafeMutablePointerToElements { UnsafeBufferPointer(start: $0, count: count) }
        // Bytes not known to be valid UTF-8 are checked, and repaired with U+FFFD as the `String`
        // of ``data`` is: every reader sees the same text.
        if !isValidUTF8, !Self.isValidUTF8(bytes) {
            var repaired = String(decoding: bytes, as: UTF8.self)
            return try repaired.withUTF8 { bytes in Result { () throws(E) -> R in try body(bytes) } }.get()
        }
        return try body(bytes)
    }

    /// Whether `bytes` are valid UTF-8 (checked without making a string where the platform can).
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return (try? UTF8Span(validating: bytes.span)) != nil
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// Fields with `data` copied into the object.
    package static func make(event: String, channel: String?, data: String?, userID: String?) -> MessageFields {
        guard var data else {
            let (fields, _) = Self.makeForData(capacity: 0)
            fields.finish(
                event: event, channel: channel, userID: userID, dataCount: -1, isValidUTF8: true, isASCII: true)
            return fields
        }
        return data.withUTF8 { bytes in
            Self.make(event: event, channel: channel, dataBytes: bytes, isValidUTF8: true, userID: userID)
        }
    }

    /// Fields with a copy of `dataBytes` as data (`isValidUTF8`: known to be valid UTF-8).
    package static func make(
        event: String, channel: String?, dataBytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool, userID: String?
    ) -> MessageFields {
        let (fields, storage) = Self.makeForData(capacity: dataBytes.count)
        if let base = dataBytes.baseAddress { storage.initialize(from: base, count: dataBytes.count) }
        fields.finish(
            event: event, channel: channel, userID: userID, dataCount: dataBytes.count, isValidUTF8: isValidUTF8,
            isASCII: false)
        return fields
    }

    /// A new object with room for `capacity` bytes of data, and where to write them (for the
    /// parser, which writes the data where it finds it and the rest with ``finish``).
    static func makeForData(capacity: Int) -> (MessageFields, UnsafeMutablePointer<UInt8>) {
        let buffer = Storage.create(minimumCapacity: capacity) { _ in
            Header(
                event: "", channel: nil, userID: nil, dataCount: -1, dataIsValidUTF8: true, dataIsASCII: true,
                approximateByteCount: 64)
        }
        let storage = unsafeDowncast(buffer, to: Storage.self)
        return (MessageFields(storage: storage), storage.withUnsafeMutablePointerToElements { $0 })
    }

    /// Writes the header of an object from ``makeForData(capacity:)``, before anyone else sees it;
    /// `dataCount` -1 for no data.
    func finish(event: String, channel: String?, userID: String?, dataCount: Int, isValidUTF8: Bool, isASCII: Bool) {
        let bytes = 64 + event.utf8.count + (channel?.utf8.count ?? 0) + max(dataCount, 0) + (userID?.utf8.count ?? 0)
        self.storage.withUnsafeMutablePointerToHeader {
            $0.pointee = Header(
                event: event, channel: channel, userID: userID, dataCount: dataCount, dataIsValidUTF8: isValidUTF8,
                dataIsASCII: isASCII, approximateByteCount: bytes)
        }
    }

    /// Whether both hold the same field values.
    package func hasSameValues(as other: MessageFields) -> Bool {
        guard !self.isIdentical(to: other) else { return true }
        guard self.event == other.event, self.channel == other.channel, self.userID == other.userID else {
            return false
        }
        switch (self.dataByteCount, other.dataByteCount) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        default: return self.data == other.data
        }
    }
}
