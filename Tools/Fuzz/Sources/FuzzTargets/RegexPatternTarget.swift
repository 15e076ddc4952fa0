import Foundation
import TapedeckCore
import TapedeckStubServer

/// A regular expression from a file (`StubRegex`, as stub definitions, WireMock mappings and the admin API read
/// one): a pattern ICU refuses is worded by `RegexProblem`, which hands it to Swift's own regex parser. The input is
/// the pattern's text; the refusal must say something other than Foundation's "could not be completed".
///
/// Patterns are kept to 250 UTF-16 units: Foundation's `_CFRegularExpressionCreate` copies a pattern longer than
/// 256 units to a heap buffer it never frees once the pattern compiles (600 bytes for a valid 300-character
/// pattern, checked with a three-line program under AddressSanitizer), which LeakSanitizer would report on every
/// long valid input; `StubRegex` adds six units (`^(?:…)$`).
enum RegexPatternTarget {
    static let target = FuzzTarget(
        name: "regex-pattern",
        summary: "StubRegex; a refused pattern's reason (RegexProblem) is words, not Foundation's placeholder"
    ) { data in
        let pattern = String(decoding: data, as: UTF8.self)
        guard pattern.utf16.count <= 250 else { return }
        do throws(StubRegex.Error) {
            _ = try StubRegex(pattern)
        } catch {
            FuzzCheck.require(!error.reason.isEmpty && !error.reason.contains("could not be completed"),
                              "the refusal of \(pattern.debugDescription) says \(error.reason.debugDescription)")
        }
    }
}
