import TapedeckCore

/// A JSON Schema compiled once and checked against many values: the body and parameter checks of
/// ``OpenAPIConformance``, usable alone.
///
/// Validates draft 2020-12 (what OpenAPI 3.1 uses) and OpenAPI 3.0's schema dialect: `type` (one or several, an
/// integral number is an `integer`), `nullable`, `enum`, `const`, `$ref` (local JSON pointers), `allOf`, `anyOf`,
/// `oneOf`, `not`, `properties`, `patternProperties`, `additionalProperties`, `required`, `min/maxProperties`,
/// `prefixItems`, `items`, `min/maxItems`, `uniqueItems`, `min/maxLength` (in Unicode scalars), `pattern`,
/// `minimum`, `maximum`, `exclusiveMinimum`/`exclusiveMaximum` (number or 3.0 boolean form) and `multipleOf`.
/// `format` and annotations are not asserted, as the default JSON Schema vocabulary leaves them.
///
/// ```swift
/// let validator = try JSONSchemaValidator(schema: [
///     "type": "object", "required": ["id"],
///     "properties": ["id": ["type": "integer", "minimum": 1]],
/// ])
/// validator.violations(of: ["id": 0]).map(\.description)  // ["/id: minimum: 0 is less than 1"]
/// ```
public struct JSONSchemaValidator: Sendable {
    private let program: SchemaProgram
    private let entry: Int

    /// Compiles `schema`; `$ref`s resolve against `root` (the whole document it belongs to), or the schema itself.
    ///
    /// - Throws: ``SchemaError`` naming the faulty keyword's place, e.g. a `pattern` that is not a regular expression.
    public init(schema: JSONValue, root: JSONValue? = nil) throws(SchemaError) {
        var compiler = SchemaCompiler(root: root ?? schema)
        entry = try compiler.compile(schema, at: "")
        program = compiler.program
    }

    init(program: SchemaProgram, entry: Int) {
        self.program = program
        self.entry = entry
    }

    /// Every way `value` breaks the schema, each with the JSON pointer of the offending part, ordered by place; empty
    /// when it conforms.
    public func violations(of value: JSONValue) -> [SchemaViolation] {
        var evaluation = SchemaEvaluation(program: program, collecting: true)
        _ = evaluation.check(value, against: entry, at: "")
        return evaluation.orderedViolations
    }

    /// Whether `value` conforms (stops at the first violation).
    public func isValid(_ value: JSONValue) -> Bool {
        var evaluation = SchemaEvaluation(program: program, collecting: false)
        return evaluation.check(value, against: entry, at: "")
    }
}
