import Foundation
import TapedeckCore
import TapedeckStubServer

/// The JSON types a schema's `type` keyword names, as a bit set.
struct JSONTypes: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    static let null = JSONTypes(rawValue: 1)
    static let boolean = JSONTypes(rawValue: 2)
    static let object = JSONTypes(rawValue: 4)
    static let array = JSONTypes(rawValue: 8)
    static let number = JSONTypes(rawValue: 16)
    static let integer = JSONTypes(rawValue: 32)
    static let string = JSONTypes(rawValue: 64)

    static let names: [(String, JSONTypes)] = [
        ("null", .null), ("boolean", .boolean), ("object", .object), ("array", .array),
        ("number", .number), ("integer", .integer), ("string", .string),
    ]

    /// The type set of a type name, or `nil` for an unknown name.
    init?(name: String) {
        guard let match = Self.names.first(where: { $0.0 == name }) else { return nil }
        self = match.1
    }

    /// Whether `value` is of one of these types (an integral number is an `integer`).
    func admits(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .object: return contains(.object)
        case .array: return contains(.array)
        case .string: return contains(.string)
        case .number(let number):
            return contains(.number) || (contains(.integer) && number.isFinite && number.rounded(.towardZero) == number)
        }
    }

    /// The names in this set, joined for a message: `"string or null"`.
    var spelled: String {
        Self.names.filter { contains($0.1) }.map(\.0).joined(separator: " or ")
    }
}

/// What `additionalProperties` allows for members no `properties` or `patternProperties` entry names.
enum AdditionalMembers: Sendable {
    case allowed
    case forbidden
    case schema(Int)
}

/// An ECMA-262 `pattern`, compiled once; searched (not anchored), as JSON Schema requires, within the stub
/// `RegexStepLimit` (TapedeckCore) (the text validated is request or response data).
struct SchemaPattern: @unchecked Sendable {
    let source: String
    private let expression: NSRegularExpression

    init(_ source: String) throws {
        self.source = source
        expression = try NSRegularExpression(pattern: source)
    }

    /// Whether `text` has a match within the step limit (a search that gives up is no match).
    func matches(_ text: String) -> Bool {
        search(text) == .found
    }

    /// How searching `text` ends, within the step limit.
    func search(_ text: String) -> RegexStepLimit.Outcome {
        RegexStepLimit.search(expression, in: text)
    }
}

/// One compiled schema: every keyword Tapedeck validates, read once from the schema's JSON. Subschemas are indices
/// into the same ``SchemaProgram`` so recursive `$ref`s need no recursion while compiling.
struct SchemaNode: Sendable {
    /// `false` (the boolean schema) rejects everything; `true` and `{}` accept everything.
    var rejectsAll = false
    var types: JSONTypes?
    var nullable = false
    var allowedValues: [JSONValue]?
    var constant: JSONValue?
    var reference: Int?
    var referenceText: String?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    // Objects.
    var properties: [String: Int] = [:]
    var patternProperties: [(SchemaPattern, Int)] = []
    var additionalProperties = AdditionalMembers.allowed
    var required: [String] = []
    var minProperties: Int?
    var maxProperties: Int?
    // Arrays.
    var prefixItems: [Int] = []
    var items: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    // Strings.
    var minLength: Int?
    var maxLength: Int?
    var pattern: SchemaPattern?
    // Numbers.
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?
}

/// Every node of the schemas compiled together (one document's), addressed by index.
struct SchemaProgram: Sendable {
    var nodes: [SchemaNode] = []
}
