// SPDX-License-Identifier: MIT

import ArgumentParser

/// The app secret of the HTTP API commands and `webhooks`: `--secret`, `--secret-file` or
/// `PUSHER_SECRET` (read as `listen` reads it, see ``ListenCredentials``).
struct SecretOptions: ParsableArguments {
    @Option(help: "The app secret (visible in ps: prefer --secret-file or PUSHER_SECRET).")
    var secret: String?

    @Option(name: .customLong("secret-file"), help: "A file holding the app secret (a trailing newline is ignored).")
    var secretFile: String?

    /// The secret; a usage error when none is given or a file cannot be read.
    func read(environment: [String: String]) throws(CLIError) -> String {
        let secret = try ListenCredentials.value(
            option: self.secret, optionName: "--secret", file: self.secretFile, fileOption: "--secret-file",
            variable: ListenCredentials.secretVariable, environment: environment
        )
        guard let secret else {
            throw CLIError("give the app secret: --secret, --secret-file or \(ListenCredentials.secretVariable)")
        }
        return secret
    }
}
