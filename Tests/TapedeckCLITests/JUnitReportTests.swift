import Testing
@testable import TapedeckCLICore

@Suite struct JUnitReportTests {
    @Test func writesCasesFailuresAndEscapes() {
        let report = JUnitReport(suite: "verify <users>", cases: [
            .init(name: "#0 GET /a?x=1&y=2", className: "users.json", seconds: 0.0126, failure: nil),
            .init(name: "#1 GET /b", className: "users.json", seconds: 1, failure: "shape: $.id: expected \"number\"\nstatus: 500"),
        ])
        let xml = report.xml()
        #expect(xml.contains(#"<testsuite name="verify &lt;users&gt;" tests="2" failures="1""#))
        #expect(xml.contains(##"<testcase name="#0 GET /a?x=1&amp;y=2" classname="users.json" time="0.013"/>"##))
        #expect(xml.contains(#"<failure message="shape: $.id: expected &quot;number&quot;" type="ContractViolation">"#))
        #expect(JUnitReport.escape("a\u{1}b") == "ab")
    }
}
