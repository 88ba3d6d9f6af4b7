// SPDX-License-Identifier: MIT

import ArgumentParser

/// The app secret of the HTTP API commands, `webhooks` and `serve`: `--secret`, `--secret-file` or
/// `PUSHER_SECRET` (read as `listen` reads it, see ``ListenCredentials``).
struct SecretOptions: ParsableArguments {
    @Option(help: "The app secret (visible in ps: prefer --secret-file or PUSHER_SECRET).")
    var secret: String?

    @Option(name: .customLong("secret-file"), help: "A file holding the app secret (a trailing newline is ignored).")
    var secretFile: String?

    /// The secret given, or nil when none is; a usage error when both options are given or a file
    /// cannot be read.
    func given(environment: [String: String]) throws(CLIError) -> String? {
        try ListenCredentials.value(
            option: self.secret, optionName: "--secret", file: self.secretFile, fileOption: "--secret-file",
            variable: ListenCredentials.secretVariable, environment: environment
        )
    }

    /// The secret; a usage error when none is given or a file cannot be read.
    func read(environment: [String: String]) throws(CLIError) -> String {
        guard let secret = try self.given(environment: environment) else {
            throw CLIError("give the app secret: --secret, --secret-file or \(ListenCredentials.secretVariable)")
        }
        return secret
    }
}
