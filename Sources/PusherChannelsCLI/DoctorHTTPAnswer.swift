// SPDX-License-Identifier: MIT

import NIOHTTP1

/// An HTTP answer as `doctor` looks at it: the status, the headers and (the first 64 KiB of) the
/// body as text.
struct DoctorHTTPAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    /// The body as received, for reading.
    var body: String
    /// The body with every secret replaced by `***`, for quoting: redacted before it is cut
    /// short, so that a quote cannot keep part of a secret.
    var shownBody: String

    init(status: Int, headers: HTTPHeaders, body: String, settings: DoctorSettings) {
        self.status = status
        self.headers = headers
        self.body = body
        self.shownBody = settings.redacted(body)
    }

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
        let page = self.shownBody
        for (open, close) in [("<title", "</title>"), ("<TITLE", "</TITLE>"), ("<Title", "</Title>")] {
            guard let tag = page.firstRange(of: open), let end = page[tag.upperBound...].firstIndex(of: ">"),
                let closing = page[end...].firstRange(of: close)
            else { continue }
            let title = DoctorFinding.oneLine(String(page[page.index(after: end)..<closing.lowerBound]))
                .trimmingWhitespace()
            return title.isEmpty ? nil : String(title.prefix(80))
        }
        return nil
    }

    /// The body quoted for a message: on one line, at most `limit` characters.
    func quotedBody(limit: Int = 120) -> String {
        let text = DoctorFinding.oneLine(self.shownBody).trimmingWhitespace()
        if text.isEmpty { return "(an empty body)" }
        return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
    }
}
