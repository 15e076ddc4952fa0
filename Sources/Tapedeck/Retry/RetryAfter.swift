import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `Retry-After` header value (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
///
/// ```swift
/// RetryAfter("120")?.delay(from: clock.now)                              // 120 s
/// RetryAfter("Sun, 06 Nov 1994 08:49:37 GMT")?.delay(from: clock.now)    // until then, or zero if past
/// ```
public enum RetryAfter: Hashable, Sendable {
    /// Wait this many seconds.
    case seconds(Int)
    /// Wait until this time.
    case date(Date)

    /// Parses `delta-seconds` or an HTTP-date in any of the three formats a recipient must accept (IMF-fixdate,
    /// RFC 850, asctime); `nil` for anything else.
    public init?(_ headerValue: String) {
        let value = headerValue.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            self = .seconds(Int(value.prefix(9)) ?? 0)
        } else if let date = Self.parseHTTPDate(value) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// How long to wait from `now`: never negative.
    public func delay(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds):
            return .seconds(seconds)
        case .date(let date):
            return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
        }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or `Sun Nov  6 08:49:37 1994`.
    static func parseHTTPDate(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var day: Int32?, month: Int32?, year: Int32?, time: String?
        if words.count == 6, words[0].hasSuffix(","), words[5] == "GMT" {
            day = Int32(words[1])
            month = monthNumber(words[2])
            year = Int32(words[3])
            time = words[4]
        } else if words.count == 4, words[0].hasSuffix(","), words[3] == "GMT" {
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let shortYear = Int32(parts[2]), parts[2].count == 2 else { return nil }
            day = Int32(parts[0])
            month = monthNumber(String(parts[1]))
            year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
            time = words[2]
        } else if words.count == 5 {
            month = monthNumber(words[1])
            day = Int32(words[2])
            time = words[3]
            year = Int32(words[4])
        }
        guard let day, let month, let year, let time, (1...31).contains(day), year >= 1900 else { return nil }
        let clock = time.split(separator: ":").map { Int32($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func monthNumber(_ name: String) -> Int32? {
        months.firstIndex(of: name.lowercased()).map { Int32($0 + 1) }
    }
}
