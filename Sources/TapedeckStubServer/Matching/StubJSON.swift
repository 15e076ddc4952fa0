import Foundation

/// A JSON value for stub bodies, body matchers and the admin API: `Sendable`, `Hashable` and `Codable`.
///
/// ```swift
/// let body: StubJSON = ["name": "tapedeck", "tags": ["http"], "count": 3, "missing": nil]
/// StubResponse.json(body)
/// ```
public enum StubJSON: Sendable, Hashable {
    /// `null`
    case null
    /// `true` / `false`
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([StubJSON])
    /// An object; key order is not significant.
    case object([String: StubJSON])

    /// Parses JSON text; `nil` when `data` is not JSON.
    public init?(parsing data: Data) {
        guard let value = try? JSONDecoder().decode(StubJSON.self, from: data) else { return nil }
        self = value
    }

    /// Compact JSON text with sorted keys, so equal values encode to equal bytes.
    public var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// The value at `path` (object keys, or array indices written as numbers), or `nil` when there is none.
    public func value(at path: [String]) -> StubJSON? {
        var current = self
        for component in path {
            switch current {
            case .object(let members):
                guard let next = members[component] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value as template text: strings without quotes, everything else as JSON.
    var templateText: String {
        if case .string(let text) = self { return text }
        return String(decoding: encoded, as: UTF8.self)
    }
}

extension StubJSON: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([StubJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: StubJSON].self))
        }
    }

    /// Encodes the value; integral numbers are written without a fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension StubJSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: StubJSON...) { self = .array(elements) }
    /// An object.
    public init(dictionaryLiteral elements: (String, StubJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// JSON-partial matching: the expected value must be contained in the actual one. Pure logic.
enum JSONPartialMatch {
    /// `nil` when `actual` contains `expected` (objects: every expected member present and matching, extra members
    /// allowed; arrays: every expected element matches a distinct actual element, in any order; scalars: equal), or
    /// the first difference as `path: reason`.
    static func difference(expected: StubJSON, actual: StubJSON, path: String = "$") -> String? {
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            for key in wanted.keys.sorted() {
                guard let value = got[key] else { return "\(path).\(key): missing" }
                if let difference = difference(expected: wanted[key]!, actual: value, path: "\(path).\(key)") {
                    return difference
                }
            }
            return nil
        case (.array(let wanted), .array(let got)):
            var unused = Array(got.indices)
            for (index, element) in wanted.enumerated() {
                guard let found = unused.firstIndex(where: { difference(expected: element, actual: got[$0]) == nil }) else {
                    return "\(path)[\(index)]: no element contains \(element.templateText)"
                }
                unused.remove(at: found)
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): expected \(expected.templateText), got \(actual.templateText)"
        }
    }
}
