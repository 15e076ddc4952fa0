import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP-dates (RFC 9110 §5.6.7), read by hand without a date formatter: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must accept, RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`); written as IMF-fixdate.
/// (Cookie dates follow RFC 6265's own, laxer algorithm: `CookieDate`.)
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")   // 1994-11-06 08:49:37 UTC
/// HTTPDate.format(Date(timeIntervalSince1970: 0))    // "Thu, 01 Jan 1970 00:00:00 GMT"
/// ```
public enum HTTPDate {
    /// `date` as an IMF-fixdate, e.g. `Thu, 01 Jan 1970 00:00:00 GMT`.
    public static func format(_ date: Date) -> String {
        date.formatted(Date.VerbatimFormatStyle(
            format: "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
            locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!, calendar: Calendar(identifier: .gregorian)))
    }

    private static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Array($0.utf8) }

    /// The date, or `nil` when `text` is not an HTTP-date.
    public static func parse(_ text: String) -> Date? {
        var day: Int32?
        var month: Int32?
        var year: Int32?
        var time: (Int32, Int32, Int32)?
        for token in tokens(of: text) {
            if token.contains(UInt8(ascii: ":")) {
                guard time == nil, let parsed = clock(token) else { return nil }
                time = parsed
            } else if let number = number(token[...]) {
                if day == nil, token.count <= 2 {
                    day = number
                } else if year == nil {
                    year = token.count == 2 ? (number < 70 ? 2000 + number : 1900 + number) : number
                } else {
                    return nil
                }
            } else if token.count == 3, let index = months.firstIndex(of: token.map({ $0 | 0x20 })) {
                guard month == nil else { return nil }
                month = Int32(index)
            }
            // Anything else (the day name, "GMT") is ignored.
        }
        guard let day, let month, let year, let (hour, minute, second) = time,
              (1...31).contains(day), (1601...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// Runs of bytes between spaces, commas and hyphens.
    private static func tokens(of text: String) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "\t") {
                if !current.isEmpty { tokens.append(current) }
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int32? {
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        var value: Int32 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int32(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `hh:mm:ss`.
    private static func clock(_ token: [UInt8]) -> (Int32, Int32, Int32)? {
        let parts = token.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
              let hour = number(parts[0]), let minute = number(parts[1]), let second = number(parts[2]) else { return nil }
        return (hour, minute, second)
    }
}
