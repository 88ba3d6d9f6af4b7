// SPDX-License-Identifier: MIT

@preconcurrency import Dispatch
import PusherChannels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of `doctor`: the checks that need no connection (api, webhook) beside the connection
/// and the checks that use it (the auth checks), every line printed in the checks' order, the
/// whole run bounded by ``DoctorDeadline/run``.
struct DoctorRun: Sendable {
    let settings: DoctorSettings
    let printer: DoctorPrinter

    init(settings: DoctorSettings, json: Bool) {
        self.settings = settings
        self.printer = DoctorPrinter(settings: settings, json: json)
    }

    /// Runs every check; returns whether one failed.
    func run() async throws -> Bool {
        // The last resort, should a check not end when cancelled: what is known is printed, the
        // rest fails, and the process ends before 60 s.
        let watchdog = DispatchWorkItem { [printer] in
            printer.finishRemaining("did not finish: the run was ended at its 60 s limit")
            Output.flush()
            StandardErrorWriter.shared.finish(within: .milliseconds(300))
            // Every check printed and none failed: only the client's shutdown was slow.
            _exit(printer.failed ? 1 : 0)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(58), execute: watchdog)
        defer { watchdog.cancel() }

        // What cannot run is known at once (and printed even if the run ends at its deadline).
        for check in DoctorCheck.allCases {
            if let skip = DoctorSkip.finding(check, settings: self.settings) { self.printer.report(skip) }
        }
        try await DoctorHTTP.withClient(settings: self.settings) { http in
            enum Ended { case checks, deadline }
            await withTaskGroup(of: Ended.self) { group in
                group.addTask {
                    await self.connectionChecks(http: http)
                    return .checks
                }
                group.addTask {
                    if !self.settings.skipped.contains(.api) {
                        self.printer.report(await DoctorAPICheck.run(http: http, settings: self.settings))
                    }
                    return .checks
                }
                group.addTask {
                    if !self.settings.skipped.contains(.webhook) {
                        self.printer.report(await DoctorWebhookCheck(settings: self.settings, http: http).run())
                    }
                    return .checks
                }
                group.addTask {
                    try? await Task.sleep(for: DoctorDeadline.run)
                    return .deadline
                }
                var running = 3
                while let ended = await group.next() {
                    if ended == .deadline && !Task.isCancelled {
                        self.printer.finishRemaining("no result within the run's 60 s limit")
                        break
                    }
                    running -= 1
                    if running == 0 { break }
                }
                group.cancelAll()
            }
        }
        // Every check has a line by now; this only guards against a check that returned none.
        self.printer.finishRemaining("the check ended without a result")
        return self.printer.failed
    }

    /// The connection and the checks that use it.
    private func connectionChecks(http: DoctorHTTP) async {
        let table = DoctorAnswerTable()
        var options = self.settings.clientConfiguration()
        options.authorizer = table.authorizer
        options.userAuthenticator = table.userAuthenticator
        let skipsConnect = self.settings.skipped.contains(.connect)
        options.connectsAutomatically = !skipsConnect
        let client = PusherClient(key: self.settings.key, configuration: options)
        _ = try? await withRunningClient(client) { client in
            let socketID: String?
            if skipsConnect {
                socketID = nil
            } else {
                let (finding, connected) = await DoctorConnectCheck.run(client, settings: self.settings)
                self.printer.report(finding)
                socketID = connected
            }
            await withDiscardingTaskGroup { group in
                for check in [DoctorCheck.authPrivate, .authPresence, .authEncrypted]
                where !self.settings.skipped.contains(check) {
                    group.addTask {
                        let auth = DoctorAuthCheck(check, settings: self.settings, http: http, table: table)
                        self.printer.report(await auth.run(client: client, socketID: socketID))
                    }
                }
                if !self.settings.skipped.contains(.userAuth) {
                    group.addTask {
                        let userAuth = DoctorUserAuthCheck(settings: self.settings, http: http, table: table)
                        self.printer.report(await userAuth.run(client: client, socketID: socketID))
                    }
                }
            }
        }
    }
}
