import Foundation
import TapedeckCore

/// One documented media type of a response, ready to answer with: its examples and, when it has none, a value
/// generated from its schema once, when the mock is made; each encoded once too.
struct MockContent: Sendable {
    /// A value to answer with, and its JSON text.
    struct Prepared: Sendable {
        let value: JSONValue
        let json: Data

        init(_ value: JSONValue) {
            self.value = value
            json = value.encoded
        }

        /// The body in `mediaType`: the JSON text, or a string value's own text for a media type that is not JSON.
        func body(as mediaType: String) -> Data {
            if !MediaTypeMatching.isJSON(mediaType), case .string(let text) = value { return Data(text.utf8) }
            return json
        }
    }

    /// The documented media range: `application/json`, `image/*`.
    let range: String
    /// The documented examples, `example` first (named `""`).
    let examples: [(name: String, prepared: Prepared)]
    /// The value generated from the schema: `nil` when there are examples or no schema; a failure says why no
    /// conforming value could be made.
    let generated: Result<Prepared, GenerationFailure>?
    /// Documented examples that break their own schema: `example 'name': /pointer: keyword: message`.
    let exampleProblems: [String]

    /// Why a value for a schema could not be made.
    struct GenerationFailure: Error, Sendable {
        let reason: String
    }

    /// What to answer with: the named example when asked for and documented, else the first example, else the
    /// generated value; `nil` for no body.
    func value(named name: String?) -> Result<Prepared, GenerationFailure>? {
        if let name, let example = examples.first(where: { $0.name == name }) { return .success(example.prepared) }
        if let first = examples.first { return .success(first.prepared) }
        return generated
    }
}

/// A response of one operation, with its headers' values prepared.
struct MockResponse: Sendable {
    let content: [MockContent]
    /// Documented headers with a value from their schema, in name order (`Content-Type` is the mock's to set).
    let headers: [(name: String, value: String)]
}

extension MockContent {
    /// Prepares `rule`, generating from its schema when it has no example; the generator draws from a seed of its
    /// own per place, so adding an operation does not change the values of the others.
    /// With `usingExamples` false the examples are left aside and every answer is generated from the schema.
    init(_ rule: MediaTypeRule, place: String, seed: UInt64, root: JSONValue, program: SchemaProgram, usingExamples: Bool = true) {
        range = rule.range
        var problems: [String] = []
        if let schema = rule.schema {
            for example in rule.examples {
                var evaluation = SchemaEvaluation(program: program, collecting: true)
                if !evaluation.check(example.value, against: schema, at: "") {
                    let name = example.name.isEmpty ? "example" : "example '\(example.name)'"
                    problems += evaluation.orderedViolations.map { "\(name): \($0.description)" }
                }
            }
        }
        exampleProblems = problems
        examples = usingExamples ? rule.examples.map { ($0.name, Prepared($0.value)) } : []
        guard examples.isEmpty, let source = rule.schemaSource, let schema = rule.schema else {
            generated = nil
            return
        }
        generated = Self.generate(source, schema: schema, seed: seed ^ Self.hash(place), root: root, program: program).map(Prepared.init)
    }

    /// A value for `source` that the compiled `schema` accepts: up to eight draws, then the reason the last failed.
    static func generate(_ source: JSONValue, schema: Int, seed: UInt64, root: JSONValue,
                         program: SchemaProgram) -> Result<JSONValue, GenerationFailure> {
        var generator = SchemaValueGenerator(root: root, seed: seed)
        var lastProblem = ""
        for _ in 0..<8 {
            let value: JSONValue
            do { value = try generator.value(for: source) } catch {
                return .failure(GenerationFailure(reason: error.description))
            }
            var evaluation = SchemaEvaluation(program: program, collecting: true)
            if evaluation.check(value, against: schema, at: "") { return .success(value) }
            lastProblem = evaluation.orderedViolations.first.map(\.description) ?? "the value does not conform"
        }
        return .failure(GenerationFailure(reason: "no generated value conforms (\(lastProblem)); document an example"))
    }

    /// FNV-1a of `text`: a stable per-place seed (Swift's `Hasher` differs per process).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

extension MockResponse {
    /// Prepares a documented response: each media type, and the headers whose schema yields a value.
    init(_ rule: ResponseRule, place: String, seed: UInt64, root: JSONValue, program: SchemaProgram, usingExamples: Bool = true) {
        content = rule.content.mediaTypes.map {
            MockContent($0, place: "\(place) \($0.range)", seed: seed, root: root, program: program, usingExamples: usingExamples)
        }
        var headers: [(name: String, value: String)] = []
        for header in rule.headers.sorted(by: { $0.name < $1.name }) where header.name.lowercased() != "content-type" {
            guard let source = header.schemaSource, let schema = header.schema else { continue }
            let generated = MockContent.generate(source, schema: schema, seed: seed ^ MockContent.hash("\(place) \(header.name)"),
                                                 root: root, program: program)
            if case .success(let value) = generated { headers.append((header.name, Self.headerText(value))) }
        }
        self.headers = headers
    }

    /// A header value as text: strings as they are, arrays joined by commas (OpenAPI's `simple` style).
    static func headerText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number: return String(decoding: value.encoded, as: UTF8.self)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let elements): return elements.map(headerText).joined(separator: ",")
        case .null: return ""
        case .object: return String(decoding: value.encoded, as: UTF8.self)
        }
    }
}
