// SPDX-License-Identifier: MIT

/// The latest channel and event names a reader parsed, so that the next message with the same
/// names reuses those strings instead of making new ones: a busy channel's events then share one
/// channel name and one event name. Short names are kept too: comparing a name's bytes costs less
/// than making even a small (inline) string of them.
package struct RecentNames: Sendable {
    private(set) var channel = ""
    private(set) var event = ""

    package init() {}

    mutating func rememberChannel(_ name: String) {
        self.channel = name
    }

    /// Remembers `name` and returns it.
    mutating func rememberEvent(_ name: String) -> String {
        self.event = name
        return name
    }
}
