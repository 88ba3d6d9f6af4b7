// SPDX-License-Identifier: MIT

import ArgumentParser
import NIOSSL
import PusherChannelsServer

/// The credentials and endpoint of the HTTP API commands (`trigger`, `channels`, `channel`,
/// `users`): `--app-id`, `--key`, the secret (``SecretOptions``), and `--cluster C` or
/// `--host H [--port P] [--no-tls]`.
struct APIOptions: ParsableArguments {
    @Option(name: .customLong("app-id"), help: "The application id.")
    var appID: String

    @Option(help: "The application key.")
    var key: String

    @OptionGroup
    var secret: SecretOptions

    @Option(help: "Pusher cluster (the HTTP API at api-CLUSTER.pusher.com). Use this or --host.")
    var cluster: String?

    @Option(help: "Host of the HTTP API of a self-hosted server (soketi, Laravel Reverb, sockudo, …).")
    var host: String?

    @Option(help: "Port of --host (default 443 with TLS, 80 without).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Use TLS (https://).")
    var tls = true

    @Option(
        name: .customLong("ca-file"),
        help: "Trust the certificate authorities of this PEM file (a private CA) as well as the system's.")
    var caFile: String?

    func validate() throws {
        guard (self.cluster == nil) != (self.host == nil) else {
            throw ValidationError("Give either --cluster or --host.")
        }
        if self.port != nil && self.host == nil { throw ValidationError("--port goes with --host.") }
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1 to 65535.") }
        if self.caFile != nil && !self.tls {
            throw ValidationError("--ca-file needs TLS; it does nothing with --no-tls.")
        }
    }

    /// The configuration of `PusherServer`, secrets read; a usage error when one is missing or
    /// malformed, or the cluster or host is not valid.
    private func configuration(
        environment: [String: String],
        masterKey: PusherServerConfiguration.MasterKey? = nil,
        limits: PusherServerConfiguration.Limits = .pusher
    ) throws(CLIError) -> PusherServerConfiguration {
        let secret = try self.secret.read(environment: environment)
        var configuration: PusherServerConfiguration
        do {
            if let cluster {
                configuration = try PusherServerConfiguration(
                    appID: self.appID, key: self.key, secret: secret, cluster: cluster)
                if !self.tls {
                    configuration = try PusherServerConfiguration(
                        appID: self.appID, key: self.key, secret: secret, host: configuration.host, useTLS: false)
                }
            } else {
                configuration = try PusherServerConfiguration(
                    appID: self.appID, key: self.key, secret: secret, host: self.host ?? "", port: self.port,
                    useTLS: self.tls)
            }
        } catch {
            throw CLIError(error.message)
        }
        configuration.encryptionMasterKey = masterKey
        configuration.limits = limits
        for warning in ConnectionSecurity.warnings(usesTLS: self.tls, cluster: self.cluster, authEndpoints: []) {
            Output.error(warning)
        }
        return configuration
    }

    /// The configuration and the certificates of `--ca-file`, read before any request.
    func connection(
        environment: [String: String],
        masterKey: PusherServerConfiguration.MasterKey? = nil,
        limits: PusherServerConfiguration.Limits = .pusher
    ) throws(CLIError) -> APIConnection {
        APIConnection(
            configuration: try self.configuration(environment: environment, masterKey: masterKey, limits: limits),
            certificates: try self.trustedCertificates()
        )
    }

    /// The certificates of `--ca-file`; nil without the option.
    private func trustedCertificates() throws(CLIError) -> [NIOSSLCertificate]? {
        guard let caFile else { return nil }
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            guard !certificates.isEmpty else { throw CLIError("--ca-file \(caFile) holds no certificate") }
            return certificates
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("--ca-file \(caFile): cannot read PEM certificates")
        }
    }
}
