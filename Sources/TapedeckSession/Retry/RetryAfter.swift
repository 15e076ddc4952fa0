import Foundation
import TapedeckCore

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
        if !value.isEmpty, value.utf8.allSatisfy(\.isASCIIDigit) {
            self = .seconds(Int(value.prefix(9)) ?? 0)
        } else if let date = HTTPDate.parse(value) {
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
}
