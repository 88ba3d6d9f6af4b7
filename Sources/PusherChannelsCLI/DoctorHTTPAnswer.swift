// SPDX-License-Identifier: MIT

import NIOHTTP1

/// An HTTP answer as `doctor` looks at it: the status, the headers and (the first 64 KiB of) the
/// body as text.
struct DoctorHTTPAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: String

    var isSuccess: Bool { (200..<300).contains(self.status) }

    /// The media type of `Content-Type`, lowercased, without its parameters; nil without one.
    var mediaType: String? {
        guard let value = self.headers.first(name: "Content-Type") else { return nil }
        return value.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() }
    }

    /// Whether the answer is an HTML page (its content type, or a body that starts like one).
    var isHTML: Bool {
        if self.mediaType == "text/html" || self.mediaType == "application/xhtml+xml" { return true }
        let start = self.body.trimmingWhitespace().prefix(15).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
    }

    /// The page's `<title>`, when it has one (as most pages write it: lowercase, uppercase or
    /// capitalized).
    var htmlTitle: String? {
        for (open, close) in [("<title", "</title>"), ("<TITLE", "</TITLE>"), ("<Title", "</Title>")] {
            guard let tag = self.body.firstRange(of: open),
                let end = self.body[tag.upperBound...].firstIndex(of: ">"),
                let closing = self.body[end...].firstRange(of: close)
            else { continue }
            let title = DoctorFinding.oneLine(String(self.body[self.body.index(after: end)..<closing.lowerBound]))
                .trimmingWhitespace()
            return title.isEmpty ? nil : String(title.prefix(80))
        }
        return nil
    }

    /// The body quoted for a message: on one line, at most `limit` characters.
    func quotedBody(limit: Int = 120) -> String {
        let text = DoctorFinding.oneLine(self.body).trimmingWhitespace()
        if text.isEmpty { return "(an empty body)" }
        return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
    }
}
