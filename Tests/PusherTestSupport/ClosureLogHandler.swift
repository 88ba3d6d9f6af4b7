// SPDX-License-Identifier: MIT

import Logging

/// A log handler that hands every event, with the logger's own metadata, to `log`: the one
/// handler the suites need, whatever they do with a line (record it, render it, call back into
/// the client).
package struct ClosureLogHandler: LogHandler {
    package let log: @Sendable (_ event: LogEvent, _ metadata: Logger.Metadata) -> Void
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package init(_ log: @escaping @Sendable (_ event: LogEvent, _ metadata: Logger.Metadata) -> Void) {
        self.log = log
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        self.log(event, self.metadata)
    }
}
