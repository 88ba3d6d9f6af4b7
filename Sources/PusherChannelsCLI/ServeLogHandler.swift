// SPDX-License-Identifier: MIT

import Logging

/// `serve`'s log on standard error: one line an event, `serve: ` first, escaped and cut (what a
/// client sent is in it), at most ``RejectionLog``'s lines a second (the rest counted), written by
/// ``StandardErrorWriter`` without ever blocking the server.
struct ServeLogHandler: LogHandler {
    let lines: RejectionLog
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(level: Logger.Level, lines: RejectionLog) {
        self.logLevel = level
        self.lines = lines
    }

    func log(event: LogEvent) {
        self.lines.log("serve: \(event.message)")
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }
}
