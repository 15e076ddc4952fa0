import Foundation
import Testing
import TapedeckSession

/// `Retry-After`: delta-seconds and the three HTTP-date formats, measured against a clock's time.
@Suite struct RetryAfterTests {
    // 1994-11-06T08:49:37Z
    let date = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func everyHTTPDateFormat(value: String) {
        #expect(RetryAfter(value) == .date(date))
    }

    @Test func deltaSeconds() {
        #expect(RetryAfter("120") == .seconds(120))
        #expect(RetryAfter(" 0 ") == .seconds(0))
        #expect(RetryAfter("120")?.delay(from: date) == .seconds(120))
    }

    @Test(arguments: ["", "-5", "1.5", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT"])
    func invalidValues(value: String) {
        #expect(RetryAfter(value) == nil)
    }

    @Test func aDateIsMeasuredFromNowAndNeverNegative() {
        let retryAfter = RetryAfter.date(date)
        #expect(retryAfter.delay(from: date.addingTimeInterval(-90)) == .seconds(90))
        #expect(retryAfter.delay(from: date.addingTimeInterval(30)) == .zero)
    }

    @Test func twoDigitYearsBeforeSeventyAreThisCentury() {
        #expect(RetryAfter("Thursday, 01-Jan-26 00:00:00 GMT") == .date(Date(timeIntervalSince1970: 1_767_225_600)))
    }
}
