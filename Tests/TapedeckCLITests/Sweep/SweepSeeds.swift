import Foundation

/// The kinds of file the CLI reads, each with the verbs that read it.
enum SweepInputKind: String, CaseIterable, Sendable {
    case cassette, sidecarCassette = "sidecar-cassette", har, vcr, stubs, wiremock, pact, openapi

    /// The verbs that read a file of this kind, with `{input}` for the damaged file, `{out}` for a path in the run's
    /// temporary folder, `{cassette}` for an intact cassette and `{openapi}` for an intact OpenAPI document.
    var verbs: [SweepVerb] {
        let conversions = ["cassette", "har", "wiremock", "pact"].map { SweepVerb.convert(to: $0) }
        switch self {
        case .cassette, .sidecarCassette:
            return [.inspect, .lint, .redact] + conversions
                + [SweepVerb(name: "verify --openapi", arguments: ["verify", "--openapi", "{openapi}", "{input}"], reportsFindings: true),
                   .serve("serve", [])]
        case .har:
            return [.inspect] + conversions
        case .vcr:
            return conversions
        case .stubs, .wiremock:
            return [.serve("serve --stubs", ["--stubs"])]
        case .pact:
            return ["cassette", "har"].map { SweepVerb.convert(to: $0) }
                + [SweepVerb(name: "verify --pact", arguments: ["verify", "--pact", "{input}", "{cassette}"], reportsFindings: true),
                   .serve("serve --pact", ["--pact"])]
        case .openapi:
            return [SweepVerb(name: "verify --openapi", arguments: ["verify", "--openapi", "{input}", "{cassette}"], reportsFindings: true),
                    .serve("serve --openapi", ["--openapi"])]
        }
    }
}

/// One command run on a damaged file.
struct SweepVerb: Sendable, Hashable {
    /// How the report names it, e.g. "convert --to har".
    var name: String
    var arguments: [String]
    /// Exit 1 with nothing on stderr is a report of findings (lint, verify), not a refusal.
    var reportsFindings = false
    /// Serves until stopped: ready means it read its input; it is then stopped with SIGINT.
    var serves = false

    static let inspect = SweepVerb(name: "inspect", arguments: ["inspect", "{input}"])
    static let lint = SweepVerb(name: "lint", arguments: ["lint", "{input}"], reportsFindings: true)
    static let redact = SweepVerb(name: "redact", arguments: ["redact", "{input}"])

    static func convert(to format: String) -> SweepVerb {
        SweepVerb(name: "convert --to \(format)", arguments: ["convert", "{input}", "--to", format, "-o", "{out}"])
    }

    static func serve(_ name: String, _ option: [String]) -> SweepVerb {
        SweepVerb(name: name, arguments: ["serve"] + option + ["{input}", "--port", "0"], serves: true)
    }
}

/// An intact input the sweep damages: a fixture of the package, with the files it names copied beside it.
struct SweepSeed: Sendable {
    var kind: SweepInputKind
    /// The fixture, relative to the package root.
    var source: String
    /// Where the damaged copy goes in the run's folder (its file name kept, so the format is still recognised).
    var destination: String
    /// Fixtures (files or folders) copied into the run's folder as they are: (source, destination).
    var companions: [(String, String)] = []

    var data: Data { get throws { try Data(contentsOf: SweepSeed.root.appendingPathComponent(source)) } }

    static let root = CLIRunner.packageRoot

    /// Every seed: each fixture of each kind the package holds.
    static let all: [SweepSeed] = {
        var seeds: [SweepSeed] = []
        func add(_ kind: SweepInputKind, _ paths: [String], companions: [(String, String)] = [], inFolder folder: String = "") {
            seeds += paths.map { SweepSeed(kind: kind, source: $0, destination: folder + ($0 as NSString).lastPathComponent, companions: companions) }
        }
        let v1 = "Cassettes/Compatibility/v1/"
        add(.cassette, ["body-encodings", "errors", "event-stream", "https-redacted", "json-formats", "stand-ins", "templated"].map { v1 + $0 + ".json" }
            + ["Tests/TapedeckCassetteTests/Fixtures/Compatibility/v1/redirect-followed.json",
               "Tools/Fuzz/Corpus/cassette-json/full.json", "Tools/Fuzz/Corpus/cassette-json/json-body.json"])
        add(.sidecarCassette, [v1 + "sidecar.json"], companions: [(v1 + "sidecar.bodies", "sidecar.bodies")])
        add(.har, ["Tools/Fuzz/Corpus/har/entries.har"])
        add(.vcr, ["vcrpy-compressed.yaml", "vcrpy-decoded.yaml", "vcrpy-plain.yaml", "ruby-vcr.yml"].map { "Tests/TapedeckCLITests/Fixtures/VCR/" + $0 })
        add(.stubs, ["list", "one", "wrapped"].map { "Tools/Fuzz/Corpus/stub-definition/\($0).json" })
        let wireMock = "Tests/TapedeckStubServerTests/Fixtures/WireMock/"
        add(.wiremock, ["1-stubbing", "2-request-matching", "3-faults-and-delays"].map { wireMock + "mappings/\($0).json" }
            + ["Tests/TapedeckCLITests/Golden/wiremock.json"],
            companions: [(wireMock + "__files", "__files")], inFolder: "mappings/")
        add(.pact, ["Tests/TapedeckCLITests/Golden/pact.json"])
        add(.openapi, ["Tests/TapedeckConformanceTests/Fixtures/pets-mock.yaml", "Tests/TapedeckConformanceTests/Fixtures/users-api.yaml",
                       "Tests/TapedeckConformanceTests/Fixtures/users-api-3.1.json", "Tools/Fuzz/Corpus/openapi-document/self-reference.yaml"])
        return seeds
    }()

    /// The intact cassette and OpenAPI document the verbs that read two files are given beside a damaged one.
    static let intactCassette = "Tools/Fuzz/Corpus/cassette-json/full.json"
    static let intactOpenAPI = "Tests/TapedeckConformanceTests/Fixtures/users-api.yaml"
}
