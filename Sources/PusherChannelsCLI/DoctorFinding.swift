// SPDX-License-Identifier: MIT

import PusherChannels

/// What one check of `doctor` found: a line `STATUS CHECK: DETAIL` on standard output, or with
/// `--json` an object `{"check","status","detail"}`.
struct DoctorFinding: Sendable, Hashable {
    enum Status: String, Sendable, Hashable, Comparable {
        case ok, skip, warn, fail

        /// ok < skip < warn < fail: the worse of two outcomes of one check.
        private var rank: Int {
            switch self {
            case .ok: 0
            case .skip: 1
            case .warn: 2
            case .fail: 3
            }
        }

        static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
    }

    var check: DoctorCheck
    var status: Status
    var detail: String

    static func ok(_ check: DoctorCheck, _ detail: String) -> DoctorFinding {
        .init(check: check, status: .ok, detail: detail)
    }
    static func warn(_ check: DoctorCheck, _ detail: String) -> DoctorFinding {
        .init(check: check, status: .warn, detail: detail)
    }
    static func fail(_ check: DoctorCheck, _ detail: String) -> DoctorFinding {
        .init(check: check, status: .fail, detail: detail)
    }
    static func skip(_ check: DoctorCheck, _ detail: String) -> DoctorFinding {
        .init(check: check, status: .skip, detail: detail)
    }

    /// The line printed for this finding: one line of text, or one JSON object. Line breaks in the
    /// detail become spaces; control characters are escaped (details quote what servers answered).
    func line(json: Bool) -> String {
        let detail = Self.oneLine(self.detail)
        if json {
            return TerminalText.escapedJSON(
                #"{"check":"# + JSONWriter.quoted(self.check.rawValue) + #","status":"#
                    + JSONWriter.quoted(self.status.rawValue) + #","detail":"# + JSONWriter.quoted(detail) + "}")
        }
        return TerminalText.escaped("\(self.status.rawValue) \(self.check.rawValue): \(detail)")
    }

    /// `text` on one line: each run of line breaks (and the whitespace around it) becomes one space.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
