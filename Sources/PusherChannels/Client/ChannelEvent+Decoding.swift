// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ChannelEvent {
    /// Decodes ``data`` as JSON into `type`.
    ///
    /// - Throws: ``PusherError`` with code `decodingFailed`, carrying the decoder's error as `cause`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder())
        throws(PusherError) -> T
    {
        do {
            let data = self.withDataBytes { Data(buffer: $0) }
            return try decoder.decode(type, from: data)
        } catch {
            throw PusherError(
                .decodingFailed,
                "could not decode '\(self.name)' data as \(T.self)",
                channel: self.channel,
                cause: error
            )
        }
    }
}
