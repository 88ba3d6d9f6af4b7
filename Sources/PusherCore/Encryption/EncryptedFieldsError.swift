// SPDX-License-Identifier: MIT

/// Why an encrypted event's data could not be read.
package struct EncryptedFieldsError: Error, Sendable, Hashable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
