// SPDX-License-Identifier: MIT

/// A failure of a command, told in plain words on standard error.
struct CLIError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
