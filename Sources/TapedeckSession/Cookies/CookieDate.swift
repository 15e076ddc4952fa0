import Foundation
import TapedeckCore

/// The cookie date algorithm of RFC 6265 §5.1.1: the lax parser that browsers use for `Expires`, which reads
/// RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`), asctime
/// (`Sun Nov  6 08:49:37 1994`) and the many variants servers send, all as UTC.
enum CookieDate {
    /// The date `text` names, or `nil` when the algorithm fails (a part is missing or out of range).
    static func parse(_ text: some StringProtocol) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        for token in tokens(Array(text.utf8)) {
            if time == nil, let value = hmsTime(token) {
                time = value
            } else if dayOfMonth == nil, let value = digits(token, minimum: 1, maximum: 2) {
                dayOfMonth = value
            } else if month == nil, let value = monthNumber(token) {
                month = value
            } else if year == nil, let value = digits(token, minimum: 2, maximum: 4) {
                year = value
            }
        }

        guard let time, let dayOfMonth, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(dayOfMonth), year >= 1601,
              time.hour <= 23, time.minute <= 59, time.second <= 59,
              dayOfMonth <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: dayOfMonth)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The date-tokens: runs of non-delimiters (§5.1.1 `delimiter` is %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E).
    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    /// `minimum…maximum` digits at the start of `token`, followed by nothing or by a non-digit and anything
    /// (the shape of `day-of-month` and `year`).
    private static func digits(_ token: ArraySlice<UInt8>, minimum: Int, maximum: Int) -> Int? {
        var value = 0
        var count = 0
        var index = token.startIndex
        while index < token.endIndex, token[index].isASCIIDigit {
            count += 1
            guard count <= maximum else { return nil }
            value = value * 10 + Int(token[index] - 0x30)
            index += 1
        }
        return count >= minimum ? value : nil
    }

    /// `hms-time ( non-digit *OCTET )`: three fields of one or two digits separated by colons.
    private static func hmsTime(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var index = token.startIndex
        while fields.count < 3 {
            var value = 0
            var count = 0
            while index < token.endIndex, token[index].isASCIIDigit, count < 2 {
                value = value * 10 + Int(token[index] - 0x30)
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            fields.append(value)
            if fields.count < 3 {
                guard index < token.endIndex, token[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        if index < token.endIndex, token[index].isASCIIDigit { return nil }
        return (fields[0], fields[1], fields[2])
    }

    private static let monthNames: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun",
                                                "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// 1…12 when the token starts with a month's three-letter abbreviation, in any case.
    private static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { $0 | 0x20 }  // ASCII letters to lower case; others never match
        return monthNames.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (negative before 1970).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Count years from March so that the leap day is the last day of the counted year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
