// SPDX-License-Identifier: MIT

/// The latest channel and event names a reader parsed, so that the next message with the same
/// names reuses those strings instead of making new ones: a busy channel's events then share one
/// channel name and one event name. Short names are kept too: comparing a name's bytes costs less
/// than making even a small (inline) string of them.
///
/// Only names read without escapes are kept (see ``JSONScanner/readString(reusing:)``): a name
/// with escapes is read as it is each time.
package struct RecentNames: Sendable {
    var channel = ""
    var event = ""

    package init() {}
}
