// SPDX-License-Identifier: MIT

/// The secrets the leak tests plant (the library's `SecretLeakTests`, the command line's
/// `CLISecretLeakTests`), and the check that none of them comes out.
package enum PlantedSecrets {
    package static let appSecret = "APP-SECRET-7f3a9c"
    package static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    package static let headerToken = "HEADER-TOKEN-51d2e8"
    /// A master key one byte short: refused, and still not repeated.
    package static let shortMasterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHg=="

    package static var all: [String] { [Self.appSecret, Self.masterKey, Self.headerToken, Self.shortMasterKey] }

    /// Every text in `texts` that holds one of `secrets`.
    package static func leaks(in texts: [String], of secrets: [String]) -> [String] {
        texts.filter { text in secrets.contains { text.contains($0) } }
    }
}
