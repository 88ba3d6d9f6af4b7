// SPDX-License-Identifier: MIT

import ArgumentParser

/// The checks of `doctor`, in the order their lines are printed.
enum DoctorCheck: String, Sendable, Hashable, CaseIterable, ExpressibleByArgument {
    case connect
    case api
    case authPrivate = "auth-private"
    case authPresence = "auth-presence"
    case authEncrypted = "auth-encrypted"
    case userAuth = "user-auth"
    case webhook

    /// The checks' names, for help and errors.
    static var names: String { Self.allCases.map(\.rawValue).joined(separator: ", ") }
}
