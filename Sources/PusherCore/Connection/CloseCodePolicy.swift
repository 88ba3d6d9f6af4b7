// SPDX-License-Identifier: MIT

/// What the protocol says to do after the connection closes with a given code.
///
/// - 4000–4099: do not reconnect (the same request would fail again).
/// - 4100–4199: reconnect, no sooner than one second, backing off.
/// - 4200–4299: reconnect at once.
/// - anything else, including no code at all (abnormal closure) and transport errors: back off.
package enum CloseCodePolicy: Sendable, Hashable {
    case doNotReconnect
    case reconnectWithBackoff(minimumDelay: Duration)
    case reconnectImmediately

    package init(closeCode: Int?) {
        switch closeCode {
        case .some(4000...4099): self = .doNotReconnect
        case .some(4100...4199): self = .reconnectWithBackoff(minimumDelay: .seconds(1))
        case .some(4200...4299): self = .reconnectImmediately
        default: self = .reconnectWithBackoff(minimumDelay: .zero)
        }
    }
}
