import Foundation
import TapedeckCore
import TapedeckStubServer

/// A regular expression from a file (`StubRegex`, as stub definitions, WireMock mappings and the admin API read
/// one): a pattern ICU refuses is worded by `RegexProblem`, which hands it to Swift's own regex parser. The input is
/// the pattern's text; the refusal must say something other than Foundation's "could not be completed".
enum RegexPatternTarget {
    static let target = FuzzTarget(
        name: "regex-pattern",
        summary: "StubRegex; a refused pattern's reason (RegexProblem) is words, not Foundation's placeholder"
    ) { data in
        let pattern = String(decoding: data, as: UTF8.self)
        do {
            _ = try StubRegex(pattern)
        } catch {
            FuzzCheck.require(!error.reason.isEmpty && !error.reason.contains("could not be completed"),
                              "the refusal of \(pattern.debugDescription) says \(error.reason.debugDescription)")
        }
    }
}
