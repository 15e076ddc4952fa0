import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore
import TapedeckConformance

/// `tapedeck verify --openapi SPEC CASSETTE…`: every recorded interaction against the provider's OpenAPI document.
extension VerifyCommand {
    func checkConformance(to specification: String) throws {
        let contract: OpenAPIConformance
        do { contract = try OpenAPIConformance(contentsOf: URL(fileURLWithPath: specification)) } catch {
            throw CLIError("the OpenAPI document cannot be used: \(error.description)")
        }
        var results: [(cassette: String, result: InteractionConformance)] = []
        for file in files {
            let loaded = try LoadedCassette.loadPrintingNotes(path: file)
            let name = loaded.url.lastPathComponent
            results += contract.check(loaded.cassette, bodyData: loaded.bodyData).map { (name, $0) }
        }
        let failed = results.filter { !$0.result.conforms }
        let documentName = URL(fileURLWithPath: specification).lastPathComponent
        if output.json {
            Console.outJSON(["openapi": .string(specification), "passed": .bool(failed.isEmpty), "interactions": .array(results.map {
                Self.json($0.result, cassette: $0.cassette)
            })])
        } else {
            printConformance(results, failed: failed, documentName: documentName)
        }
        if let junit {
            let report = JUnitReport(suite: "tapedeck verify --openapi \(documentName)", cases: results.map { cassette, result in
                JUnitReport.TestCase(name: "#\(result.index) \(Self.request(result))", className: cassette, seconds: 0,
                                     failure: result.conforms ? nil : result.violations.map(\.description).joined(separator: "\n"))
            })
            try OutputFile.write(Data(report.xml().utf8), to: junit, what: "the JUnit report")
        }
        if !failed.isEmpty { throw ExitCode.failure }
    }

    private func printConformance(_ results: [(cassette: String, result: InteractionConformance)],
                                  failed: [(cassette: String, result: InteractionConformance)], documentName: String) {
        let style = Console.style
        let several = files.count > 1
        var table = TextTable(header: (several ? ["cassette"] : []) + ["#", "request", "operation", "result"],
                              rightAligned: [several ? 1 : 0])
        for (cassette, result) in results {
            table.append((several ? [cassette] : []) + [String(result.index), Self.request(result), result.operation ?? "-",
                                                        result.conforms ? style.green("PASS") : style.red("FAIL")])
        }
        Console.out(table.render(style: style))
        for (cassette, result) in failed {
            Console.out()
            Console.out("\(several ? cassette + " " : "")#\(result.index) \(result.summary.replacingOccurrences(of: Self.origin(result.summary), with: "")):")
            for violation in result.violations { Console.out("  - \(violation.description)") }
        }
        Console.out()
        Console.out(failed.isEmpty
            ? style.green("\(results.count) interaction(s) conform to \(documentName)")
            : style.red("\(failed.count) of \(results.count) interaction(s) break \(documentName)"))
    }

    /// `GET /users/1` of a result, for tables.
    private static func request(_ result: InteractionConformance) -> String {
        let parts = result.summary.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2 else { return result.summary }
        return "\(parts[0]) \(URLParts(String(parts[1])).pathAndQuery)"
    }

    /// `http://api.example.com` of a summary's URL, which failure headings leave out.
    private static func origin(_ summary: String) -> String {
        let parts = summary.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let components = URLComponents(string: String(parts[1])), let scheme = components.scheme,
              let host = components.host else { return "\u{0}" }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
    }

    private static func json(_ result: InteractionConformance, cassette: String) -> CassetteJSON {
        ["cassette": .string(cassette), "index": .integer(result.index), "request": .string(request(result)),
         "operation": result.operation.map { .string($0) } ?? .null, "result": .string(result.conforms ? "pass" : "fail"),
         "violations": .array(result.violations.map { violation in
             ["place": .string(violation.place.description), "pointer": violation.pointer.map { .string($0) } ?? .null,
              "rule": .string(violation.rule), "message": .string(violation.message)]
         })]
    }
}
