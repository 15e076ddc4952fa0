import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore

@Suite struct TextTableTests {
    @Test func padsColumnsAndAlignsNumbers() {
        var table = TextTable(header: ["#", "name", "size"], rightAligned: [2])
        table.append(["0", "alpha", "5 B"])
        table.append(["10", "b", "1.5 KiB"])
        #expect(table.render() == "#   name      size\n0   alpha      5 B\n10  b      1.5 KiB")
        #expect(TextTable(header: ["a"]).render(style: TerminalStyle(enabled: true)) == "\u{1B}[1ma\u{1B}[0m")
    }

    @Test func colourFollowsTerminalAndNoColor() {
        #expect(TerminalStyle.detect(isTerminal: true, environment: [:]).enabled)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": "1"]).enabled)
        #expect(!TerminalStyle.detect(isTerminal: false, environment: [:]).enabled)
    }

    @Test func formatsByteCountsAndProgress() {
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(1536) == "1.5 KiB")
        #expect(ByteCount.format(3 << 20) == "3.0 MiB")
        #expect(ProgressBar.render(label: "down", completed: 512, total: 1024, width: 10) == "down [#####     ]  50%  512 B / 1.0 KiB")
        #expect(ProgressBar.render(label: "down", completed: 7, total: nil) == "down 7 B")
    }
}

@Suite struct CassetteDiffTests {
    func loaded(_ interactions: [Interaction]) -> LoadedCassette {
        LoadedCassette(url: URL(fileURLWithPath: "/nonexistent/x.json"), cassette: Cassette(interactions: interactions))
    }

    func interaction(_ body: String, headers: HTTPHeaders = [:], status: Int = 200) -> Interaction {
        Interaction(request: .init(method: "GET", url: "http://h/a"),
                    outcome: .response(.init(statusCode: status, headers: headers, body: CassetteBody(Data(body.utf8)))))
    }

    @Test func jsonBodiesAreComparedAsJSON() {
        let a = loaded([interaction(#"{"a":1,"b":[1,2]}"#, headers: ["Date": "x"])])
        let b = loaded([interaction(#"{"b":[1,2],"a":1.0}"#, headers: ["date": "y"])])
        #expect(CassetteDiff.compare(a, b).isEmpty)
        let c = loaded([interaction(#"{"a":2,"b":[1],"c":true}"#)])
        #expect(CassetteDiff.compare(a, c).map(\.line) == [
            "interactions[0].response.body.a: 1 → 2",
            "interactions[0].response.body.b.1: 2 → (absent)",
            "interactions[0].response.body.c: (absent) → true",
        ])
    }

    @Test func statusOutcomeAndCountDifferencesAreReported() {
        let a = loaded([interaction("x", status: 200), interaction("y")])
        let b = loaded([interaction("x", status: 500)])
        #expect(CassetteDiff.compare(a, b).map(\.line) == [
            "interactions[0].response.status: 200 → 500",
            "interactions[1]: GET http://h/a → (absent)",
        ])
    }
}

@Suite struct SecretScannerTests {
    @Test func redactedPlaceholdersAreClean() {
        let interaction = Interaction(
            request: .init(method: "GET", url: "http://h/a?token=%5BREDACTED%5D", headers: ["Authorization": "Bearer [REDACTED]"]),
            outcome: .response(.init(statusCode: 200, body: CassetteBody(Data(#"{"password":"[REDACTED]"}"#.utf8)))))
        #expect(SecretScanner().scan(interaction, at: "i", body: { $0.inlineData ?? Data() }).isEmpty)
    }

    @Test func unredactedValuesAreFoundWithTheirPlace() {
        let interaction = Interaction(
            request: .init(method: "GET", url: "http://h/a?token=abcdef", headers: ["X-Api-Key": "k-123456"]),
            outcome: .response(.init(statusCode: 200, body: CassetteBody(Data(#"{"user":{"client_secret":"s3cr3t!"}}"#.utf8)))))
        let hits = SecretScanner().scan(interaction, at: "i", body: { $0.inlineData ?? Data() })
        #expect(hits.map(\.place) == ["i.request.url query token", "i.request.headers.X-Api-Key", "i.response.body.user.client_secret"])
        #expect(hits.allSatisfy { $0.rule == .secret })
        #expect(!hits.contains { $0.message.contains("s3cr3t!") })
    }

    @Test func linterFindsStaleInteractionsByAge() {
        let old = Interaction(request: .init(method: "GET", url: "http://h/"), outcome: .response(.init(statusCode: 200)),
                              recordedAt: Date(timeIntervalSince1970: 0))
        let loaded = LoadedCassette(url: URL(fileURLWithPath: "/nonexistent/x.json"), cassette: Cassette(interactions: [old]))
        let now = Date(timeIntervalSince1970: 10 * 86_400)
        #expect(CassetteLinter(maxAge: 9).lint(loaded, file: "x.json", now: now).map(\.rule) == [.stale])
        #expect(CassetteLinter(maxAge: 10).lint(loaded, file: "x.json", now: now).isEmpty)
        #expect(CassetteLinter().lint(loaded, file: "x.json", now: now).isEmpty)
    }

    @Test func anInteractionWhoseRedirectsWereFollowedInsideItLacksItsHops() {
        var answer = Interaction.Response(statusCode: 200)
        let hop = Interaction(request: .init(method: "GET", url: "http://h/get"), outcome: .response(answer),
                              recordedAt: Date(timeIntervalSince1970: 0))
        answer.url = "http://h/get"
        let collapsed = Interaction(request: .init(method: "GET", url: "http://h/redirect/2"), outcome: .response(answer),
                                    recordedAt: Date(timeIntervalSince1970: 0))
        let loaded = LoadedCassette(url: URL(fileURLWithPath: "/nonexistent/x.json"), cassette: Cassette(interactions: [hop, collapsed]))
        let findings = CassetteLinter().lint(loaded, file: "x.json", now: Date(timeIntervalSince1970: 0))
        #expect(findings.map(\.rule) == [.missingHops])
        #expect(findings.first?.place == "interactions[1].response.url")
        #expect(findings.first?.message.contains("http://h/get answered") == true)
    }

    @Test func schemaFindingsCarryLineAndColumn() {
        let finding = LintFinding.schema(.corrupt(file: "f", line: 3, column: 7, reason: "unexpected }"), file: "f")
        #expect(finding.line == "f: line 3, column 7: [schema] invalid JSON: unexpected }")
    }
}
