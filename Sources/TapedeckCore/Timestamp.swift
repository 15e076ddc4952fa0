import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ISO 8601 UTC timestamps with milliseconds (`2026-01-31T12:00:00.000Z`), formatted and parsed by hand so that
/// loading a large cassette does not pay for a date formatter per interaction.
package enum Timestamp {
    /// `date` truncated to whole milliseconds, as cassettes store it.
    package static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    package static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Digits written straight into the string's storage: this runs for every recorded interaction.
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func put(_ value: Int, width: Int, then separator: Unicode.Scalar) {
                var remaining = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
                buffer[index + width] = UInt8(ascii: separator)
                index += width + 1
            }
            // Four digits, as ``parse(_:)`` reads them back.
            put(min(max(Int(parts.tm_year) + 1900, 0), 9999), width: 4, then: "-")
            put(Int(parts.tm_mon) + 1, width: 2, then: "-")
            put(Int(parts.tm_mday), width: 2, then: "T")
            put(Int(parts.tm_hour), width: 2, then: ":")
            put(Int(parts.tm_min), width: 2, then: ":")
            put(Int(parts.tm_sec), width: 2, then: ".")
            put(fraction, width: 3, then: "Z")
            return index
        }
    }

    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for index in range {
                guard index < bytes.count, bytes[index].isASCIIDigit else { return nil }
                value = value * 10 + Int32(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var milliseconds: Double = 0
        if bytes[19] == UInt8(ascii: ".") {
            // Any number of digits may follow; nine (nanoseconds) are read, so the value cannot overflow.
            let digits = min(bytes.count - 1 - 20, 9)
            guard digits > 0, bytes[20..<(bytes.count - 1)].allSatisfy(\.isASCIIDigit),
                  let fraction = number(20..<(20 + digits)) else { return nil }
            milliseconds = Double(fraction) / pow(10, Double(digits)) * 1000
        } else if bytes.count != 20 {
            return nil
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: (Double(seconds) * 1000 + milliseconds.rounded(.down)) / 1000)
    }
}
