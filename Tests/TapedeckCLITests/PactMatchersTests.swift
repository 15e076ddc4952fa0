import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore
import TapedeckConformance
import TapedeckCore
import TapedeckTestSupport

/// `tapedeck convert --to pact`: matching rules for values that vary, unless `--no-matchers` (Tools/Interop/pact-live.sh checks
/// the result with Pact's own verifier against a live provider).
@Suite struct PactMatchersTests {
    static func order(id: Int, uuid: String, created: String, requestID: String, total: String = "12.5") -> Interaction {
        Interaction(
            request: .init(method: "GET", url: "http://shop.example/orders/latest", headers: ["Accept": "application/json"]),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json", "X-Request-Id": requestID, "Server": "shop"],
                                     body: Fixtures.json(#"{"id":\#(id),"uuid":"\#(uuid)","total":\#(total),"created":"\#(created)","note":"fixed","tags":["a"]}"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:00Z"))
    }

    static let cassette = Cassette(interactions: [
        order(id: 1000, uuid: "7440677c-7d90-40b8-8928-e666b4773dcf", created: "2026-11-25T16:24:44.360+00:00",
              requestID: "160b31aa-6cbe-445c-8dd4-17ed13a38acd"),
        Interaction(
            request: .init(method: "POST", url: "http://shop.example/session"),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"],
                                     body: Fixtures.json(#"{"token":"[REDACTED]","user":{"userId":7,"name":"Ada","odd key":"x"}}"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:01Z")),
        order(id: 1007, uuid: "5b962eb3-eef1-4b31-91fa-b18aa60fb189", created: "2026-11-25T16:24:53.260+00:00",
              requestID: "6aff56ef-0a2f-4969-8aed-3f208e24376e", total: "13"),
    ])

    static func rules(_ contract: PactExport.Contract, _ index: Int) -> CassetteJSON? {
        contract.json["interactions"]?.arrayValue?[index]["response"]?["matchingRules"]
    }

    static func matcher(_ rules: CassetteJSON?, _ part: String, _ path: String) -> CassetteJSON? {
        rules?[part]?[path]?["matchers"]?.arrayValue?.first
    }

    @Test func matchersAreOnByDefaultAndTheSwitchTurnsThemOff() {
        let byDefault = PactExport.contract(for: Self.cassette, consumer: "c", provider: "p") { $0.inlineData ?? Data() }
        let on = PactExport.contract(for: Self.cassette, consumer: "c", provider: "p", matchers: true) { $0.inlineData ?? Data() }
        let off = PactExport.contract(for: Self.cassette, consumer: "c", provider: "p", matchers: false) { $0.inlineData ?? Data() }
        #expect(Self.rules(byDefault, 0) != nil && byDefault.json == on.json)
        #expect((0..<3).allSatisfy { Self.rules(off, $0) == nil })
    }

    /// The command as the library: matchers unless `--no-matchers`; `--matchers` is still accepted.
    @Test func theCommandWritesMatchersUnlessToldNotTo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "shop.json", in: directory.url)
        for (flags, expected) in [([], true), (["--matchers"], true), (["--no-matchers"], false)] {
            let result = try await CLIRunner.run(["convert", file.path, "--to", "pact"] + flags)
            #expect(result.status == 0, "\(flags): \(result.stderr)")
            #expect(result.stdout.contains("\"matchingRules\"") == expected, "\(flags)")
        }
    }

    @Test func variedValuesFormatsIdsAndRedactedValuesGetMatchers() throws {
        let contract = PactExport.contract(for: Self.cassette, consumer: "c", provider: "p", matchers: true) { $0.inlineData ?? Data() }
        let first = Self.rules(contract, 0)
        #expect(Self.matcher(first, "body", "$.id") == .object([.init("match", "integer")]))
        #expect(Self.matcher(first, "body", "$.uuid")?["regex"] == .string(PactMatchers.Format.uuid.regex))
        #expect(Self.matcher(first, "body", "$.created")?["regex"] == .string(PactMatchers.Format.isoDateTime.regex))
        #expect(Self.matcher(first, "body", "$.total") == .object([.init("match", "type")]), "12.5 then 13: varied")
        #expect(Self.matcher(first, "body", "$.note") == nil && Self.matcher(first, "body", "$.tags[0]") == nil)
        #expect(Self.matcher(first, "header", "X-Request-Id")?["regex"] == .string(PactMatchers.Format.uuid.regex))
        #expect(Self.matcher(first, "header", "Server") == nil && Self.matcher(first, "header", "Content-Type") == nil)
        #expect(first?["body"]?["$.id"]?["combine"] == "AND")
        #expect(Self.rules(contract, 2) == first, "both repeats carry the same rules")

        let session = Self.rules(contract, 1)
        #expect(Self.matcher(session, "body", "$.token") == .object([.init("match", "type")]))
        #expect(Self.matcher(session, "body", "$.user.userId") == .object([.init("match", "integer")]))
        #expect(Self.matcher(session, "body", "$.user.name") == nil)
        guard case .object(let bodyRules)? = session?["body"] else {
            Issue.record("no body rules")
            return
        }
        #expect(bodyRules.map(\.key) == ["$.token", "$.user.userId"])
    }

    @Test func theContractWithMatchersStillConformsToThePactV3Schema() throws {
        let contract = PactExport.contract(for: Self.cassette, consumer: "c", provider: "p", matchers: true) { $0.inlineData ?? Data() }
        let validator = try PactExportTests.validator()
        let json = try PactExportTests.jsonValue(contract.json)
        #expect(validator.violations(of: json).isEmpty, "\(validator.violations(of: json))")
    }

    @Test(arguments: [
        ("2026-11-25T16:24:44Z", PactMatchers.Format.isoDateTime), ("2026-11-25 16:24", .isoDateTime), ("2026-11-25T16:24:44.1+0100", .isoDateTime),
        ("2026-11-25", .isoDate), ("7440677C-7D90-40B8-8928-E666B4773DCF", .uuid),
    ])
    func formatsAreRecognised(text: String, format: PactMatchers.Format) throws {
        #expect(PactMatchers.Format(text) == format)
        #expect(try Regex(format.regex).wholeMatch(in: text) != nil, "the regex the verifier gets accepts the example")
    }

    @Test func plainValuesAreNotFormats() {
        for text in ["Ada", "2026", "12:00", "7440677c7d9040b88928e666b4773dcf", "2026-11-25T", "Wed, 25 Nov 2026 16:24:44 GMT"] {
            #expect(PactMatchers.Format(text) == nil, "\(text)")
        }
        #expect(PactMatchers.Format("Wed, 25 Nov 2026 16:24:44 GMT", allowingHTTPDates: true) == .httpDate)
        #expect(PactMatchers.child("$", "odd key") == "$['odd key']" && PactMatchers.child("$", "a_1") == "$.a_1" && PactMatchers.child("$", "1a") == "$['1a']")
        #expect(["id", "ID", "userId", "order_id", "orderID"].allSatisfy(PactMatchers.namesAnIdentifier))
        #expect(PactMatchers.isRedacted("[REDACTED]") && PactMatchers.isRedacted("Bearer REDACTED-ABCDEFGH2345"))
        #expect(!PactMatchers.isRedacted("REDACTED") && !PactMatchers.isRedacted("plain"))
        #expect(!["idea", "valid", "paid"].contains(where: PactMatchers.namesAnIdentifier))
    }
}
