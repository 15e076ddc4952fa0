import Foundation
import TapedeckCore

/// Compiles JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses it, plus OpenAPI 3.0's `nullable` and boolean
/// `exclusiveMinimum`/`exclusiveMaximum`) into one ``SchemaProgram``. `$ref`s are JSON pointers into `root` (`#/...`);
/// each target is compiled once, so schemas that share components share nodes and recursion is a loop of indices.
/// `format`, annotations and unknown keywords are not validated (as JSON Schema's default vocabulary leaves them).
///
/// A recursive schema (a tree whose `children` are items of its own `$ref`) is valid and compiles to a loop that
/// consumes the value on its way round. A loop that does not (`A` is `$ref: B` and `B` is `allOf: [$ref: A]`) could
/// never decide anything: it is refused, naming the pointers round the loop. Schemas nest at most
/// ``maximumNesting`` levels.
struct SchemaCompiler {
    private(set) var program = SchemaProgram()
    private let root: JSONValue
    private var compiledReferences: [String: Int] = [:]
    /// The JSON pointer each node was compiled from, for messages.
    private var pointers: [String] = []
    /// How deep the compilation is now; the in-place loop check runs when a top-level compile ends.
    private var nesting = 0
    /// Nodes before this index have been checked for in-place loops.
    private var checkedNodes = 0

    /// The deepest a schema may nest (subschemas in subschemas), so that compiling and checking it cannot exhaust
    /// the stack.
    static let maximumNesting = 256

    init(root: JSONValue) {
        self.root = root
    }

    /// Compiles `schema`, found at `pointer` in the root document, and returns its node's index.
    mutating func compile(_ schema: JSONValue, at pointer: String) throws(SchemaError) -> Int {
        let index = newNode(at: pointer)
        try enter(at: pointer)
        program.nodes[index] = try node(for: schema, at: pointer)
        try leave()
        return index
    }

    private mutating func newNode(at pointer: String) -> Int {
        let index = program.nodes.count
        program.nodes.append(SchemaNode())
        pointers.append(pointer)
        return index
    }

    private mutating func enter(at pointer: String) throws(SchemaError) {
        guard nesting < Self.maximumNesting else {
            nesting = 0
            throw SchemaError(schemaPointer: pointer, reason: "schemas nest deeper than \(Self.maximumNesting) levels")
        }
        nesting += 1
    }

    /// Ends one level; at the top, checks the nodes compiled since the last check for loops that consume nothing.
    private mutating func leave() throws(SchemaError) {
        nesting -= 1
        guard nesting == 0 else { return }
        let loop = SchemaLoops.inPlaceLoop(in: program, from: checkedNodes)
        checkedNodes = program.nodes.count
        if let loop {
            let path = loop.map { pointers[$0].isEmpty ? "/" : pointers[$0] }
            throw SchemaError(schemaPointer: path[0], reason: "$ref loop \(path.joined(separator: " → ")) never reaches a "
                              + "keyword that checks the value (allOf, anyOf, oneOf, not and $ref apply to the same value)")
        }
    }

    /// Compiles the schema at `reference` (`#/components/schemas/Pet`) once.
    mutating func compileReference(_ reference: String, from pointer: String) throws(SchemaError) -> Int {
        if let index = compiledReferences[reference] { return index }
        guard reference.hasPrefix("#") else {
            throw SchemaError(schemaPointer: pointer, reason: "$ref '\(Shown.truncated(reference))' is not a local reference (only '#/...' is supported)")
        }
        guard let target = SchemaReference.target(of: reference, in: root) else {
            throw SchemaError(schemaPointer: pointer, reason: "$ref '\(Shown.truncated(reference))' points at nothing in the document")
        }
        let pointer = String(reference.dropFirst())
        let index = newNode(at: pointer)
        compiledReferences[reference] = index
        try enter(at: pointer)
        program.nodes[index] = try node(for: target, at: pointer)
        try leave()
        return index
    }

    private mutating func node(for schema: JSONValue, at pointer: String) throws(SchemaError) -> SchemaNode {
        var node = SchemaNode()
        switch schema {
        case .bool(let accepts):
            node.rejectsAll = !accepts
            return node
        case .object(let keywords):
            for (keyword, value) in keywords {
                try apply(keyword, value, to: &node, at: JSONPointer.appending(keyword, to: pointer))
            }
            try applyBooleanExclusiveBounds(keywords, to: &node, at: pointer)
            // Implied by `required` (OpenAPIKit's 3.0-to-3.1 conversion writes it so): checking it again would only
            // repeat a missing member as a second violation.
            if let minimum = node.minProperties, minimum <= node.required.count { node.minProperties = nil }
            return node
        default:
            throw SchemaError(schemaPointer: pointer, reason: "a schema must be an object or a boolean, not \(schema.kindName)")
        }
    }

    private mutating func apply(_ keyword: String, _ value: JSONValue, to node: inout SchemaNode, at pointer: String) throws(SchemaError) {
        switch keyword {
        case "type": node.types = try types(value, at: pointer)
        case "nullable": node.nullable = value.boolValue ?? false
        case "enum":
            guard let values = value.arrayValue else { throw SchemaError(schemaPointer: pointer, reason: "enum must be an array") }
            node.allowedValues = values
        case "const": node.constant = value
        case "$ref":
            guard let reference = value.stringValue else { throw SchemaError(schemaPointer: pointer, reason: "$ref must be a string") }
            node.referenceText = reference
            node.reference = try compileReference(reference, from: pointer)
        case "allOf": node.allOf = try schemaList(value, at: pointer)
        case "anyOf": node.anyOf = try schemaList(value, at: pointer)
        case "oneOf": node.oneOf = try schemaList(value, at: pointer)
        case "not": node.not = try compile(value, at: pointer)
        case "properties":
            guard let members = value.objectValue else { throw SchemaError(schemaPointer: pointer, reason: "properties must be an object") }
            for (name, schema) in members {
                node.properties[name] = try compile(schema, at: JSONPointer.appending(name, to: pointer))
            }
        case "patternProperties":
            guard let members = value.objectValue else { throw SchemaError(schemaPointer: pointer, reason: "patternProperties must be an object") }
            for (source, schema) in members.sorted(by: { $0.key < $1.key }) {
                let memberPointer = JSONPointer.appending(source, to: pointer)
                node.patternProperties.append((try pattern(source, at: memberPointer), try compile(schema, at: memberPointer)))
            }
        case "additionalProperties":
            switch value {
            case .bool(true): node.additionalProperties = .allowed
            case .bool(false): node.additionalProperties = .forbidden
            default: node.additionalProperties = .schema(try compile(value, at: pointer))
            }
        case "required":
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw SchemaError(schemaPointer: pointer, reason: "required must be an array of strings")
            }
            node.required = names
        case "minProperties": node.minProperties = try count(value, at: pointer)
        case "maxProperties": node.maxProperties = try count(value, at: pointer)
        case "prefixItems": node.prefixItems = try schemaList(value, at: pointer)
        case "items": node.items = try compile(value, at: pointer)
        case "minItems": node.minItems = try count(value, at: pointer)
        case "maxItems": node.maxItems = try count(value, at: pointer)
        case "uniqueItems": node.uniqueItems = value.boolValue ?? false
        case "minLength": node.minLength = try count(value, at: pointer)
        case "maxLength": node.maxLength = try count(value, at: pointer)
        case "pattern":
            guard let source = value.stringValue else { throw SchemaError(schemaPointer: pointer, reason: "pattern must be a string") }
            node.pattern = try pattern(source, at: pointer)
        case "minimum": node.minimum = try number(value, at: pointer)
        case "maximum": node.maximum = try number(value, at: pointer)
        case "exclusiveMinimum": if case .number(let bound) = value { node.exclusiveMinimum = bound }
        case "exclusiveMaximum": if case .number(let bound) = value { node.exclusiveMaximum = bound }
        case "multipleOf":
            let divisor = try number(value, at: pointer)
            guard divisor > 0 else { throw SchemaError(schemaPointer: pointer, reason: "multipleOf must be greater than 0") }
            node.multipleOf = divisor
        default: break
        }
    }

    /// OpenAPI 3.0 (JSON Schema draft 4) writes `exclusiveMinimum: true` to make `minimum` exclusive.
    private func applyBooleanExclusiveBounds(_ keywords: [String: JSONValue], to node: inout SchemaNode, at pointer: String) throws(SchemaError) {
        if keywords["exclusiveMinimum"] == .bool(true) {
            node.exclusiveMinimum = node.minimum
            node.minimum = nil
        }
        if keywords["exclusiveMaximum"] == .bool(true) {
            node.exclusiveMaximum = node.maximum
            node.maximum = nil
        }
    }

    private func types(_ value: JSONValue, at pointer: String) throws(SchemaError) -> JSONTypes {
        let names: [JSONValue] = value.arrayValue ?? [value]
        var types: JSONTypes = []
        for name in names {
            guard let text = name.stringValue, let type = JSONTypes(name: text) else {
                throw SchemaError(schemaPointer: pointer, reason: "type \(name.compactText) is not one of null, boolean, object, array, number, integer, string")
            }
            types.insert(type)
        }
        return types
    }

    private mutating func schemaList(_ value: JSONValue, at pointer: String) throws(SchemaError) -> [Int] {
        guard let schemas = value.arrayValue, !schemas.isEmpty else {
            throw SchemaError(schemaPointer: pointer, reason: "must be a non-empty array of schemas")
        }
        var indices: [Int] = []
        for (position, schema) in schemas.enumerated() {
            indices.append(try compile(schema, at: pointer + "/\(position)"))
        }
        return indices
    }

    private func count(_ value: JSONValue, at pointer: String) throws(SchemaError) -> Int {
        guard let count = value.intValue, count >= 0 else {
            throw SchemaError(schemaPointer: pointer, reason: "must be a non-negative integer, not \(value.compactText)")
        }
        return count
    }

    private func number(_ value: JSONValue, at pointer: String) throws(SchemaError) -> Double {
        guard case .number(let number) = value else {
            throw SchemaError(schemaPointer: pointer, reason: "must be a number, not \(value.compactText)")
        }
        return number
    }

    private func pattern(_ source: String, at pointer: String) throws(SchemaError) -> SchemaPattern {
        do { return try SchemaPattern(source) } catch {
            throw SchemaError(schemaPointer: pointer, reason: "'\(source)' is not a valid regular expression: \(RegexProblem.words(for: source))")
        }
    }
}

extension JSONValue {
    /// `object`, `array`, `string`, … for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as compact JSON text, cut to 60 characters, for messages.
    var compactText: String {
        Shown.truncated(String(decoding: encoded, as: UTF8.self), limit: 60)
    }
}
