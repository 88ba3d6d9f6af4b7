// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannelsServer

/// How the HTTP API commands end: the server's JSON response on standard output, or a line on
/// standard error and an exit status.
enum APICall {
    /// Runs `call` and prints the response body it returns on one line (as returned, without a
    /// trailing line break). A `PusherServerError` becomes a line on standard error and the
    /// command's exit status (``exitStatus(for:)``).
    static func printing(_ call: () async throws(PusherServerError) -> String) async throws {
        let body: String
        do {
            body = try await call()
        } catch {
            throw Self.report(error)
        }
        Output.line(Self.oneLine(body))
    }

    /// Writes `error` to standard error (an HTTP error as its status and the response body) and
    /// returns the exit status: 2 for what was refused before any request (an invalid argument, a
    /// limit, the configuration), 1 for everything else.
    static func report(_ error: PusherServerError) -> ExitCode {
        switch error.code {
        case .invalidArgument, .limitExceeded, .invalidConfiguration:
            Output.error("error: \(error.message)")
            return ExitStatus.usage
        case .httpStatus:
            Output.error("error: HTTP \(error.httpStatus.map(String.init) ?? "?"): \(error.responseBody ?? "")")
            return ExitStatus.connectionFailed
        case .undecodableResponse:
            Output.error("error: \(error): \(error.responseBody ?? "")")
            return ExitStatus.connectionFailed
        default:
            Output.error("error: \(error)")
            return ExitStatus.connectionFailed
        }
    }

    /// `body` without trailing line breaks.
    static func oneLine(_ body: String) -> String {
        var body = Substring(body)
        while body.last?.isNewline == true { body.removeLast() }
        return String(body)
    }

    /// `--info a,b` as attributes; a usage error names an unknown one.
    static func attributes(_ list: String?) throws(CLIError) -> [ChannelAttribute] {
        guard let list else { return [] }
        var attributes: [ChannelAttribute] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let attribute = ChannelAttribute(rawValue: String(name)) else {
                let known = ChannelAttribute.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError("--info: unknown attribute '\(name)' (known: \(known))")
            }
            attributes.append(attribute)
        }
        return attributes
    }
}

extension APICall {
    /// Runs the preparations of a command (reading secrets, files, standard input); a `CLIError`
    /// becomes one line on standard error and exit status 2, before any request.
    static func prepared<Value>(_ body: () async throws(CLIError) -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            Output.error("error: \(error.description)")
            throw ExitStatus.usage
        }
    }
}
