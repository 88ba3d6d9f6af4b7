// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Prints the findings of `doctor` in the order of ``DoctorCheck``, each as soon as it and those
/// before it are known, secrets redacted; remembers whether one failed.
final class DoctorPrinter: Sendable {
    private struct State {
        var findings: [DoctorCheck: DoctorFinding] = [:]
        /// How many checks (in order) are printed.
        var printed = 0
        var failed = false
    }

    private let state = NIOLockedValueBox(State())
    private let settings: DoctorSettings
    private let json: Bool

    init(settings: DoctorSettings, json: Bool) {
        self.settings = settings
        self.json = json
    }

    /// Whether a printed finding failed.
    var failed: Bool { self.state.withLockedValue { $0.failed } }

    /// Records `finding` and prints every finding now due. A second finding of a check, or one
    /// after ``finishRemaining(_:)``, is ignored.
    func report(_ finding: DoctorFinding) {
        self.state.withLockedValue { state in
            guard state.findings[finding.check] == nil else { return }
            state.findings[finding.check] = finding
            self.printDue(&state)
        }
    }

    /// Prints every check not printed yet: its finding when it has one, else a failure saying `why`.
    func finishRemaining(_ why: String) {
        self.state.withLockedValue { state in
            for check in DoctorCheck.allCases where state.findings[check] == nil {
                state.findings[check] = .fail(check, why)
            }
            self.printDue(&state)
        }
    }

    /// Prints the findings due, in order; under the lock, so that lines never interleave.
    private func printDue(_ state: inout State) {
        let checks = DoctorCheck.allCases
        while state.printed < checks.count, let finding = state.findings[checks[state.printed]] {
            var shown = finding
            shown.detail = self.settings.redacted(finding.detail)
            Output.line(shown.line(json: self.json))
            if finding.status == .fail { state.failed = true }
            state.printed += 1
        }
    }
}
