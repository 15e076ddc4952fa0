import Foundation
@testable import TapedeckConformance
import TapedeckCore

/// A JSON Schema alone (the input is the schema's JSON, its own `$ref` root): `JSONSchemaValidator` compiles it, the
/// mock's generator (`MockContent.generate`, with its limits) makes a value, and a value the generator reports as
/// conforming must be valid to the validator.
enum SchemaGeneratorTarget {
    static let target = FuzzTarget(
        name: "schema-generator",
        summary: "JSONSchemaValidator and the mock's value generator; a generated value validates"
    ) { data in
        guard let schema = JSONValue(parsing: data),
              let validator = try? JSONSchemaValidator(schema: schema) else { return }
        var compiler = SchemaCompiler(root: schema)
        guard let entry = try? compiler.compile(schema, at: "") else { return }
        if case .success(let value) = MockContent.generate(schema, schema: entry, seed: 3, root: schema, program: compiler.program) {
            FuzzCheck.require(validator.isValid(value), "a generated value does not validate: \(value.compactText)")
        }
    }
}
