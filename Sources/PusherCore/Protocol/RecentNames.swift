// SPDX-License-Identifier: MIT

/// The latest channel and event names a reader parsed, so that the next message with the same
/// names reuses those strings instead of making new ones: a busy channel's events then share one
/// channel name and one event name. Only names too long for Swift's inline small strings (more
/// than 15 UTF-8 bytes) are kept; shorter ones cost no allocation anyway.
package struct RecentNames: Sendable {
    private(set) var channel = ""
    private(set) var event = ""

    package init() {}

    mutating func rememberChannel(_ name: String) {
        if name.utf8.count > 15 { self.channel = name }
    }

    /// Remembers `name` and returns it.
    mutating func rememberEvent(_ name: String) -> String {
        if name.utf8.count > 15 { self.event = name }
        return name
    }
}
