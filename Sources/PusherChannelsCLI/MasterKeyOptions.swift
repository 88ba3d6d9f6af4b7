// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

/// The encryption master key of `trigger` and `webhooks`: `--master-key`, `--master-key-file` or
/// `PUSHER_MASTER_KEY` (read as `listen` reads it, see ``ListenCredentials``).
struct MasterKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("master-key"),
        help:
            "The encryption master key, base64 of 32 bytes, for private-encrypted channels (visible in ps: prefer --master-key-file or PUSHER_MASTER_KEY)."
    )
    var masterKey: String?

    @Option(
        name: .customLong("master-key-file"),
        help: "A file holding the encryption master key (a trailing newline is ignored).")
    var masterKeyFile: String?

    /// The master key, nil when none is given; a usage error when a file cannot be read or the key is
    /// not base64 of 32 bytes (the message never repeats the key).
    func read(environment: [String: String]) throws(CLIError) -> PusherServerConfiguration.MasterKey? {
        let text = try ListenCredentials.value(
            option: self.masterKey, optionName: "--master-key", file: self.masterKeyFile,
            fileOption: "--master-key-file", variable: ListenCredentials.masterKeyVariable, environment: environment
        )
        guard let text else { return nil }
        do {
            return try PusherServerConfiguration.MasterKey(base64: text)
        } catch {
            throw CLIError("the encryption master key must be base64 of 32 bytes")
        }
    }
}
