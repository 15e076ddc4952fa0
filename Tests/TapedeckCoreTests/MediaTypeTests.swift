import Foundation
import Testing
import TapedeckCore

/// `MediaType.essence(of:)` replaced three spellings of the same rule (contract checks, Pact, OpenAPI conformance):
/// it answers as each of them did on values a header can hold.
@Suite struct MediaTypeTests {
    /// The three implementations it replaced, as they were.
    private static func contractRules(_ value: String) -> String {
        value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }
    private static func pact(_ value: String) -> String {
        String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
    private static func conformance(_ value: String) -> String {
        let end = value.firstIndex(of: ";") ?? value.endIndex
        let type = value[..<end].drop(while: \.isWhitespace)
        return String(type.prefix(type.lastIndex(where: { !$0.isWhitespace }).map { type.distance(from: type.startIndex, to: $0) + 1 } ?? 0)).lowercased()
    }

    @Test(arguments: [
        "application/json", "Application/JSON; charset=utf-8", "  text/HTML ;q=1", "\ttext/plain\t", "image/png;",
        "", " ", "multipart/form-data; boundary=\"a;b\"", "application/vnd.api+JSON", "text/plain;;", "a/b ; c",
        "Text/Ünïcode; x=1", "\u{00A0}text/plain\u{00A0}", "TEXT/PLAIN\u{2003}",
    ])
    func answersAsTheThreeItReplacedDid(value: String) {
        let essence = MediaType.essence(of: value)
        #expect(essence == Self.conformance(value))
        #expect(essence == Self.pact(value))
        #expect(essence == Self.contractRules(value))
    }

    @Test func aValueStartingWithItsParametersHasNoType() {
        // The contract rules' split skipped an empty type and took the parameters as the type; now nothing is the type.
        #expect(MediaType.essence(of: ";charset=utf-8") == "")
        #expect(MediaType.essence(of: "Application/JSON;charset=utf-8") == "application/json")
    }
}
