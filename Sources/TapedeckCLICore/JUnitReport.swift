import Foundation

/// A JUnit XML report (the subset CI systems read: one `<testsuite>` of `<testcase>`s with `<failure>`s).
///
/// ```swift
/// var report = JUnitReport(suite: "tapedeck verify")
/// report.cases.append(.init(name: "#0 GET /users", className: "users.json", seconds: 0.01, failure: nil))
/// try report.xml().write(to: url, atomically: true, encoding: .utf8)
/// ```
public struct JUnitReport: Sendable {
    /// One test case.
    public struct TestCase: Sendable, Hashable {
        /// The case's name.
        public var name: String
        /// Its class name (the cassette).
        public var className: String
        /// How long it took.
        public var seconds: Double
        /// The failure text, or `nil` when it passed.
        public var failure: String?
        /// Whether the case was skipped (reported as `<skipped/>`).
        public var skipped: Bool
        /// The first line of the failure, used as its `message` attribute.
        public var failureMessage: String? { failure?.split(separator: "\n").first.map(String.init) }

        /// Creates a test case.
        public init(name: String, className: String, seconds: Double, failure: String?, skipped: Bool = false) {
            self.skipped = skipped
            self.name = name
            self.className = className
            self.seconds = seconds
            self.failure = failure
        }
    }

    /// The suite's name.
    public var suite: String
    /// The cases, in order.
    public var cases: [TestCase]

    /// Creates an empty report.
    public init(suite: String, cases: [TestCase] = []) {
        self.suite = suite
        self.cases = cases
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and characters XML 1.0 forbids dropped.
    public static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// The XML document.
    public func xml() -> String {
        let failures = cases.filter { $0.failure != nil }.count
        let skipped = cases.filter(\.skipped).count
        let total = cases.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites tests="\#(cases.count)" failures="\#(failures)" time="\#(Self.seconds(total))">"#,
            #"  <testsuite name="\#(Self.escape(suite))" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="\#(skipped)" time="\#(Self.seconds(total))">"#,
        ]
        for testCase in cases {
            let open = #"    <testcase name="\#(Self.escape(testCase.name))" classname="\#(Self.escape(testCase.className))" time="\#(Self.seconds(testCase.seconds))""#
            if let failure = testCase.failure {
                lines.append(open + ">")
                lines.append(#"      <failure message="\#(Self.escape(testCase.failureMessage ?? ""))" type="ContractViolation">\#(Self.escape(failure))</failure>"#)
                lines.append("    </testcase>")
            } else if testCase.skipped {
                lines += [open + ">", "      <skipped/>", "    </testcase>"]
            } else {
                lines.append(open + "/>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }
}
