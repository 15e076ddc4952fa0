import Foundation
import Testing
@testable import TapedeckSession

/// The cookie date algorithm (RFC 6265 §5.1.1) that reads `Expires`.
@Suite struct CookieDateTests {
    /// 1994-11-06T08:49:37Z, the date of RFC 7231's examples.
    static let rfcExample = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",     // RFC 1123
        "Sunday, 06-Nov-94 08:49:37 GMT",    // RFC 850
        "Sun Nov  6 08:49:37 1994",          // asctime
        "Sun, 06-Nov-1994 08:49:37 GMT",     // Netscape's original format
        "06 Nov 1994 08:49:37",              // no weekday, no zone
        "sun, 06 NOV 1994 08:49:37 gmt",     // any case
        "Sun,06-Nov-1994,08:49:37GMT",       // any delimiters; text after the time is ignored
        "1994 Nov 6 08:49:37",               // fields in another order
        "Sun, 6 Nov 1994 8:49:37 GMT",       // one-digit day and hour
        "Sun, 06 November 1994 08:49:37 UTC",  // full month name
        "Sun, 06 Nov 1994 08:49:37 +0100",   // the zone is ignored: cookie dates are UTC
    ])
    func readsTheUsualFormatsAndLaxVariants(_ text: String) {
        #expect(CookieDate.parse(text) == Self.rfcExample, "\(text)")
    }

    @Test func twoDigitYearsFollowTheRFCWindow() {
        #expect(CookieDate.parse("01 Jan 70 00:00:00") == Date(timeIntervalSince1970: 0))
        #expect(CookieDate.parse("31 Dec 69 23:59:59") == Date(timeIntervalSince1970: 3_155_759_999))  // 2069
        #expect(CookieDate.parse("01 Jan 2038 00:00:00")?.timeIntervalSince1970 == 2_145_916_800)
    }

    @Test func leapDaysAndYearBoundaries() {
        #expect(CookieDate.parse("29 Feb 2000 12:00:00") == Date(timeIntervalSince1970: 951_825_600))
        #expect(CookieDate.parse("29 Feb 2024 00:00:00") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(CookieDate.parse("31 Dec 9999 23:59:59") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(CookieDate.parse("01 Jan 1601 00:00:00") == Date(timeIntervalSince1970: -11_644_473_600))
    }

    @Test(arguments: [
        "",
        "Sun, 06 Nov 1994",                  // no time
        "Sun, 06 1994 08:49:37 GMT",         // no month
        "Sun, Nov 1994 08:49:37 GMT",        // no day (four digits are not a day)
        "Sun, 06 Nov 08:49:37 GMT",          // no year
        "Sun, 32 Nov 1994 08:49:37 GMT",     // day out of range
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Fri, 30 Feb 2024 08:49:37 GMT",     // no such date
        "Thu, 29 Feb 2023 08:49:37 GMT",     // not a leap year
        "Sun, 06 Nov 1600 08:49:37 GMT",     // before 1601
        "Sun, 06 Nov 1994 24:00:00 GMT",     // hour out of range
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:60 GMT",
        "Sun, 06 Nov 19944 08:49:37 GMT",    // a five-digit number is no year
        "tomorrow",
    ])
    func failsWhenAPartIsMissingOrOutOfRange(_ text: String) {
        #expect(CookieDate.parse(text) == nil, "\(text)")
    }

    @Test func daysSince1970MatchesTheCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let dates = [(1970, 1, 1), (1969, 12, 31), (2000, 3, 1), (1601, 1, 1), (2400, 2, 29), (2026, 11, 21)]
        for (year, month, day) in dates {
            let expected = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            #expect(TimeInterval(CookieDate.daysSince1970(year: year, month: month, day: day) * 86_400)
                    == expected.timeIntervalSince1970, "\(year)-\(month)-\(day)")
        }
    }
}
