// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a server's clock is from this machine's: from the server's own words ("… server time
/// (1700000900)") or its `Date` header.
enum DoctorClock {
    /// Seconds since 1970, now.
    static func now() -> Int { Int(Date().timeIntervalSince1970) }

    /// The server's time in a message such as Pusher's "Timestamp expired: Given timestamp
    /// (1700000000) not within 600s of server time (1700000900)": the number after "server time".
    static func serverTime(inMessage message: String) -> Int? {
        guard let mention = message.lowercased().firstRange(of: "server time") else { return nil }
        let digits = message[mention.upperBound...].drop { !$0.isASCII || !$0.isNumber }.prefix {
            $0.isASCII && $0.isNumber
        }
        guard digits.count >= 9, let seconds = Int(digits) else { return nil }
        // Milliseconds, as some servers give them.
        return digits.count >= 13 ? seconds / 1000 : seconds
    }

    /// An HTTP date (RFC 9110's preferred form, `Sun, 06 Nov 1994 08:49:37 GMT`) as seconds since
    /// 1970; nil for anything else.
    static func seconds(ofHTTPDate text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = Self.months.firstIndex(of: String(parts[2]))
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0..<24).contains(time[0]), (0..<60).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        return Self.daysSince1970(year: year, month: month + 1, day: day) * 86_400 + time[0] * 3600 + time[1] * 60
            + time[2]
    }

    /// How a clock difference reads: "900 s ahead", "15 s behind".
    static func describe(_ difference: Int) -> String {
        difference >= 0 ? "\(difference) s ahead of this machine's" : "\(-difference) s behind this machine's"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
