import Foundation
import Testing
import TapedeckConformance
import TapedeckCore
import TapedeckTestSupport

/// Tapedeck's JSON Schema verdicts against Python's `jsonschema` (installed with pip when missing) on generated
/// schema/value pairs and on a real schema: the cassette format's own, over the committed cassettes and broken copies.
@Suite("JSON Schema differential", .serialized)
struct JSONSchemaDifferentialTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let packageRoot = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func generatedSchemasAgreeWithPythonJSONSchema() async throws {
        var generator = SchemaCaseGenerator(seed: 0x7A9E_DECC)
        let cases = (0..<3000).map { _ in generator.nextCase() }
        try await expectAgreement(cases)
    }

    @Test func theCassetteSchemaAgreesOnRealAndBrokenCassettes() async throws {
        let schema = try #require(JSONValue(parsing: Data(contentsOf: Self.packageRoot.appendingPathComponent("Cassettes/cassette.schema.json"))))
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.packageRoot.appendingPathComponent("Cassettes").path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
        var cases: [(schema: JSONValue, instance: JSONValue)] = []
        for file in files.sorted() {
            let cassette = try #require(JSONValue(parsing: Data(contentsOf: Self.packageRoot.appendingPathComponent("Cassettes/\(file)"))))
            cases.append((schema, cassette))
            for broken in Self.breakages(of: cassette) { cases.append((schema, broken)) }
        }
        try #require(cases.count > 3)
        try await expectAgreement(cases)
    }

    /// Copies of a cassette with one thing wrong each (and one thing harmless).
    static func breakages(of cassette: JSONValue) -> [JSONValue] {
        guard case .object(var top) = cassette, case .array(let interactions)? = top["interactions"], case .object(var first)? = interactions.first else { return [] }
        var results: [JSONValue] = []
        var noVersion = top
        noVersion["version"] = nil
        results.append(.object(noVersion))
        var wrongVersion = top
        wrongVersion["version"] = 2
        results.append(.object(wrongVersion))
        first["request"] = "GET /"
        top["interactions"] = .array([.object(first)] + interactions.dropFirst())
        results.append(.object(top))
        return results
    }

    private func expectAgreement(_ cases: [(schema: JSONValue, instance: JSONValue)]) async throws {
        let reference = try await Self.pythonVerdicts(cases)
        try #require(reference.count == cases.count)
        var disagreements: [String] = []
        var validCount = 0
        for (index, testCase) in cases.enumerated() {
            let ours = try JSONSchemaValidator(schema: testCase.schema).isValid(testCase.instance)
            if ours { validCount += 1 }
            if ours != reference[index] {
                disagreements.append("schema \(String(decoding: testCase.schema.encoded, as: UTF8.self)) instance \(String(decoding: testCase.instance.encoded, as: UTF8.self)): Tapedeck \(ours), jsonschema \(reference[index])")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreement(s), first: \(disagreements.prefix(5).joined(separator: "\n"))")
        // Both verdicts must occur often, or the comparison says little.
        #expect(validCount > cases.count / 10 && validCount < cases.count * 9 / 10, "\(validCount) of \(cases.count) valid")
    }

    /// Python's verdicts, one per case; installs `jsonschema` with pip when it is missing.
    static func pythonVerdicts(_ cases: [(schema: JSONValue, instance: JSONValue)]) async throws -> [Bool] {
        if try await run(["python3", "-c", "import jsonschema"]).status != 0 {
            let install = try await run(["python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "jsonschema"])
            try #require(install.status == 0, "pip could not install jsonschema: \(install.everything)")
        }
        var input = Data()
        for testCase in cases {
            input.append(JSONValue.object(["schema": testCase.schema, "instance": testCase.instance]).encoded)
            input.append(0x0A)
        }
        let result = try await run(["python3", fixtures.appendingPathComponent("jsonschema_verdicts.py").path], input: input)
        try #require(result.status == 0, "the jsonschema reference failed: \(result.everything)")
        return result.output.split(separator: "\n").map { $0 == "1" }
    }

    /// Runs `arguments` through `/usr/bin/env` on a thread of its own (so the suite's cooperative threads stay free
    /// while Python works): its status, standard output, and both outputs for messages.
    private static func run(_ arguments: [String], input: Data = Data()) async throws -> (status: Int32, output: String, everything: String) {
        let result = try await ExternalCommand.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, input: input)
        let output = String(decoding: result.standardOutput, as: UTF8.self)
        return (result.status, output, output + result.standardError)
    }
}

/// Random schemas over the keywords Tapedeck validates, and values shaped to hit both sides of each rule.
struct SchemaCaseGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func nextCase() -> (schema: JSONValue, instance: JSONValue) {
        let schema = self.schema(depth: 0)
        let withDefinitions: JSONValue
        if case .object(var members) = schema, chance(4) {
            members["$defs"] = ["item": self.schema(depth: 2)]
            members["properties"] = ["ref": ["$ref": "#/$defs/item"]]
            withDefinitions = .object(members)
        } else {
            withDefinitions = schema
        }
        return (withDefinitions, value(depth: 0))
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }
    private mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    private static let names = ["a", "b", "c", "x1", "x2"]
    private static let types = ["null", "boolean", "object", "array", "number", "integer", "string"]

    private mutating func schema(depth: Int) -> JSONValue {
        if depth > 2 || chance(8) { return chance(3) ? .bool(!chance(4)) : [:] }
        var members: [String: JSONValue] = [:]
        for _ in 0..<(1 + below(3)) {
            switch below(16) {
            case 0: members["type"] = chance(3) ? .array([.string(pick(Self.types)), .string(pick(Self.types))]) : .string(pick(Self.types))
            case 1: members["enum"] = .array((0..<(1 + below(3))).map { _ in scalar() })
            case 2: members["const"] = scalar()
            case 3:
                var properties: [String: JSONValue] = [:]
                for _ in 0..<(1 + below(2)) { properties[pick(Self.names)] = schema(depth: depth + 1) }
                members["properties"] = .object(properties)
                if chance(2) { members["required"] = .array([.string(pick(Self.names))]) }
                if chance(2) { members["additionalProperties"] = chance(2) ? .bool(false) : schema(depth: depth + 1) }
            case 4: members["patternProperties"] = [pick(["^x", "1$", "b"]): schema(depth: depth + 1)]
            case 5:
                members["items"] = schema(depth: depth + 1)
                if chance(2) { members["prefixItems"] = .array([schema(depth: depth + 1)]) }
            case 6: members[pick(["minItems", "maxItems"])] = .number(Double(below(3)))
            case 7: members["uniqueItems"] = .bool(chance(2))
            case 8: members[pick(["minLength", "maxLength"])] = .number(Double(below(4)))
            case 9: members["pattern"] = .string(pick(["^a", "b+", "^[a-c]*$", "\\d"]))
            case 10: members[pick(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])] = .number(Double(below(5)) - 2)
            case 11: members["multipleOf"] = .number(pick([2, 3, 0.5]))
            case 12: members[pick(["allOf", "anyOf", "oneOf"])] = .array((0..<(1 + below(3))).map { _ in schema(depth: depth + 1) })
            case 13: members["not"] = schema(depth: depth + 1)
            case 14: members[pick(["minProperties", "maxProperties"])] = .number(Double(below(3)))
            default: members["required"] = .array([.string(pick(Self.names))])
            }
        }
        return .object(members)
    }

    private mutating func scalar() -> JSONValue {
        switch below(6) {
        case 0: return .null
        case 1: return .bool(chance(2))
        case 2: return .number(Double(below(7)) - 3)
        case 3: return .number(pick([0.5, 1.5, -2.5]))
        default: return .string(pick(["", "a", "ab", "abc", "b1", "x", "aaaa"]))
        }
    }

    private mutating func value(depth: Int) -> JSONValue {
        if depth > 2 { return scalar() }
        switch below(5) {
        case 0:
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(4) { members[pick(Self.names + ["ref"])] = value(depth: depth + 1) }
            return .object(members)
        case 1: return .array((0..<below(4)).map { _ in chance(3) ? scalar() : value(depth: depth + 1) })
        default: return scalar()
        }
    }
}
