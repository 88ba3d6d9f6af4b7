// SPDX-License-Identifier: MIT

import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The secrets of `listen` (app secret, encryption master key, auth headers), each from an option,
/// a file, or an environment variable, so that none has to be on the command line, where every user
/// of the machine can read it (`ps`).
///
/// An option and its `-file` form exclude each other; the environment variable is read only when
/// neither is given. Auth headers add up: those of `PUSHER_AUTH_HEADER`, then of
/// `--auth-header-file`, then of `--auth-header`, a later one replacing an earlier one of the same
/// name. Errors never repeat a secret.
struct ListenCredentials: Sendable {
    static let secretVariable = "PUSHER_SECRET"
    static let masterKeyVariable = "PUSHER_MASTER_KEY"
    static let authHeaderVariable = "PUSHER_AUTH_HEADER"

    var secret: String?
    var masterKey: String?
    var headers: [String: String]

    /// Reads the secrets; a file that cannot be read, an empty secret, a malformed master key or
    /// header is a `CLIError` (a usage error).
    init(_ listen: Listen, environment: [String: String]) throws(CLIError) {
        self.secret = try Self.value(
            option: listen.secret, optionName: "--secret", file: listen.secretFile, fileOption: "--secret-file",
            variable: Self.secretVariable, environment: environment
        )
        self.masterKey = try Self.value(
            option: listen.masterKey, optionName: "--master-key", file: listen.masterKeyFile,
            fileOption: "--master-key-file",
            variable: Self.masterKeyVariable, environment: environment
        )
        if let masterKey,
            (try? EncryptionMasterKey.sharedSecret(forChannel: "private-encrypted-x", masterKey: masterKey)) == nil
        {
            throw CLIError("the encryption master key must be base64 of 32 bytes")
        }
        var lines: [String] = []
        if let variable = environment[Self.authHeaderVariable] { lines += Self.headerLines(variable) }
        if let file = listen.authHeaderFile {
            lines += Self.headerLines(try Self.read(file, option: "--auth-header-file"))
        }
        lines += listen.authHeaders
        var headers: [HeaderLine] = []
        for line in lines { headers.append(try HeaderLine.parse(line)) }
        self.headers = HeaderLine.dictionary(headers)
    }

    /// Whether a secret is available, without reading any file (for `validate()`).
    static func hasSecret(_ listen: Listen, environment: [String: String]) -> Bool {
        listen.secret != nil || listen.secretFile != nil || environment[Self.secretVariable].map { !$0.isEmpty } == true
    }

    /// One secret: from `option`, else from `file` (surrounding whitespace and the trailing newline
    /// dropped), else from the environment `variable`; nil when none is given. Shared with the
    /// HTTP API commands (``SecretOptions``, ``MasterKeyOptions``).
    static func value(
        option: String?,
        optionName: String,
        file: String?,
        fileOption: String,
        variable: String,
        environment: [String: String]
    ) throws(CLIError) -> String? {
        if option != nil && file != nil { throw CLIError("give \(optionName) or \(fileOption), not both") }
        if let option {
            guard !option.isEmpty else { throw CLIError("\(optionName) is empty") }
            return option
        }
        if let file {
            let text = try Self.read(file, option: fileOption).trimmingWhitespace()
            guard !text.isEmpty else { throw CLIError("\(fileOption) \(file) is empty") }
            return text
        }
        guard let value = environment[variable]?.trimmingWhitespace(), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// The lines of a header file or variable that hold a header (blank lines and `#` comments
    /// skipped).
    private static func headerLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingWhitespace()
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
        }
    }

    private static func read(_ path: String, option: String) throws(CLIError) -> String {
        do {
            return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw CLIError("cannot read \(option) \(path): \(Self.reason(error))")
        }
    }

    /// Why a file could not be read, in a few words (never its content).
    static func reason(_ error: any Error) -> String {
        let cocoa = error as? CocoaError
        switch cocoa?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        case .fileReadInapplicableStringEncoding?: return "not UTF-8 text"
        default: return cocoa.map { "error \($0.code.rawValue)" } ?? "\(error)"
        }
    }
}
