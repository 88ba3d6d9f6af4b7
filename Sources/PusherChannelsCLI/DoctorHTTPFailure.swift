// SPDX-License-Identifier: MIT

/// Why ``DoctorHTTP/send(_:_:headers:body:)`` has no answer.
enum DoctorHTTPFailure: Error, Sendable, CustomStringConvertible {
    /// No answer within ``DoctorDeadline/request``.
    case timedOut
    /// The request failed; the reason in words.
    case failed(String)

    var description: String {
        switch self {
        case .timedOut: "no answer within 10 s"
        case .failed(let reason): reason
        }
    }
}
