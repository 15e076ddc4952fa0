import Testing
import TapedeckConformance
import TapedeckCore

@Suite("JSONSchemaValidator")
struct JSONSchemaValidatorTests {
    private func violations(_ schema: JSONValue, _ value: JSONValue) throws -> [String] {
        try JSONSchemaValidator(schema: schema).violations(of: value).map(\.description)
    }

    @Test func typesIncludingIntegerAndTypeLists() throws {
        #expect(try violations(["type": "integer"], 3) == [])
        #expect(try violations(["type": "integer"], 3.5) == ["/: type: expected integer, found a number"])
        #expect(try violations(["type": ["string", "null"]], nil) == [])
        #expect(try violations(["type": ["string", "null"]], true) == ["/: type: expected null or string, found a boolean"])
        #expect(try violations(["type": "string", "nullable": true], nil) == [])
    }

    /// A `pattern` is request or response data's regular expression: one that backtracks catastrophically stops at the
    /// stub server's step limit, and the violation says so rather than hanging the check (issue H9).
    @Test func aCatastrophicPatternGivesUpWithAViolationThatNamesTheLimit() throws {
        let text = String(repeating: "a", count: 40) + "b"
        let found = try violations(["type": "string", "pattern": "^(a+)+$"], .string(text))
        #expect(found.count == 1)
        #expect(found.first?.contains("/: pattern: \"\(text)\" was not matched: /^(a+)+$/ gave up after") == true, "\(found)")
        #expect(try violations(["type": "string", "pattern": "^(a+)+$"], "aaaa") == [])
    }

    @Test func objectsNameTheMemberAtFault() throws {
        let schema: JSONValue = [
            "type": "object", "required": ["id", "name"], "additionalProperties": false,
            "properties": ["id": ["type": "integer", "minimum": 1], "name": ["type": "string", "minLength": 2]],
        ]
        #expect(try violations(schema, ["id": 1, "name": "Ada"]) == [])
        let found = try violations(schema, ["id": 0, "extra": true]).sorted()
        #expect(found == [
            "/: required: the member \"name\" is missing",
            "/extra: additionalProperties: the member \"extra\" is not allowed",
            "/id: minimum: 0 is less than 1",
        ])
    }

    @Test func arraysAndPointersEscapeTokens() throws {
        let schema: JSONValue = [
            "type": "object",
            "properties": ["a/b": ["type": "array", "items": ["type": "string"], "maxItems": 2, "uniqueItems": true]],
        ]
        #expect(try violations(schema, ["a/b": ["x", 1]]) == ["/a~1b/1: type: expected string, found a number"])
        #expect(try violations(schema, ["a/b": ["x", "x", "y"]]).sorted() == [
            "/a~1b: maxItems: has 3 items, more than 2", "/a~1b: uniqueItems: holds the same item more than once",
        ])
        #expect(try violations(["prefixItems": [["type": "integer"]], "items": false], [1, 2]) == ["/1: false: no value is allowed here"])
    }

    @Test func combinatorsAndReferences() throws {
        let root: JSONValue = [
            "$defs": ["node": ["type": "object", "properties": ["next": ["$ref": "#/$defs/node"], "value": ["type": "integer"]]]],
            "$ref": "#/$defs/node",
        ]
        let recursive = try JSONSchemaValidator(schema: root)
        #expect(recursive.isValid(["value": 1, "next": ["value": 2, "next": ["value": 3]]]))
        #expect(recursive.violations(of: ["next": ["next": ["value": "x"]]]).map(\.description) == ["/next/next/value: type: expected integer, found a string"])
        #expect(try violations(["oneOf": [["type": "integer"], ["minimum": 0]]], 5) == ["/: oneOf: matches 2 of the 2 schemas; exactly one must match"])
        #expect(try violations(["anyOf": [["type": "integer"], ["type": "string"]]], true) == ["/: anyOf: matches none of the 2 schemas"])
        #expect(try violations(["not": ["const": 3]], 3) == ["/: not: matches the schema it must not match"])
        #expect(try violations(["enum": ["a", 1]], "b") == [#"/: enum: "b" is not one of ["a",1]"#])
    }

    @Test func stringsAndNumbers() throws {
        #expect(try violations(["pattern": "^[a-z]+$"], "abc") == [])
        #expect(try violations(["pattern": "^[a-z]+$"], "aBc") == [#"/: pattern: "aBc" does not match /^[a-z]+$/"#])
        #expect(try violations(["maxLength": 2], "né") == [])
        #expect(try violations(["multipleOf": 0.1], 0.3) == [])
        #expect(try violations(["multipleOf": 0.01], 19.99) == [])
        #expect(try violations(["multipleOf": 0.01], 19.995) == ["/: multipleOf: 19.995 is not a multiple of 0.01"])
        #expect(try violations(["multipleOf": 3], 10) == ["/: multipleOf: 10 is not a multiple of 3"])
        #expect(try violations(["exclusiveMinimum": 1], 1) == ["/: exclusiveMinimum: 1 is not greater than 1"])
        #expect(try violations(["minimum": 1, "exclusiveMinimum": true], 1) == ["/: exclusiveMinimum: 1 is not greater than 1"])
    }

    @Test func invalidSchemasSayWhereAndWhy() {
        #expect(throws: SchemaError(schemaPointer: "/properties/a/pattern", reason: "'(' is not a valid regular expression: expected ')' at offset 1")) {
            try JSONSchemaValidator(schema: ["properties": ["a": ["pattern": "("]]])
        }
        #expect(throws: SchemaError(schemaPointer: "/$ref", reason: "$ref '#/$defs/missing' points at nothing in the document")) {
            try JSONSchemaValidator(schema: ["$ref": "#/$defs/missing"])
        }
        #expect(throws: SchemaError(schemaPointer: "/type", reason: #"type "strin" is not one of null, boolean, object, array, number, integer, string"#)) {
            try JSONSchemaValidator(schema: ["type": "strin"])
        }
    }
}
