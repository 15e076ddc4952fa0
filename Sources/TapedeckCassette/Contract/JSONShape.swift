/// The shape rule of contract verification: the live JSON must have the recorded keys with the recorded JSON
/// types, recursively. An array's recorded elements may differ in shape (httpbin's `/json` has slides with and
/// without `items`): each live element must fit one of them, any one; one that fits none is reported against the
/// recorded element it comes closest to.
///
/// ```swift
/// JSONShape.violations(recorded: ["id": 1, "tags": ["a"]], live: ["id": "1", "tags": []])
/// // ["$.id: expected number, got string"]
/// JSONShape.violations(recorded: [["a": 1], ["b": "x"]], live: [["b": "y"], ["a": 2]])
/// // []
/// ```
public enum JSONShape {
    /// The JSON type name of a value: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public static func typeName(_ value: CassetteJSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Where `live` breaks the shape of `recorded`, as `$.path: what` lines; empty when compatible.
    public static func violations(recorded: CassetteJSON, live: CassetteJSON, path: String = "$") -> [String] {
        // The common case, an answer with other values in the same shape, is said without building a path.
        fits(recorded, live) ? [] : collect(recorded: recorded, live: live, path: path)
    }

    /// Whether `live` surely fits `recorded`, worked out without naming places: the same keys in the same order with
    /// fitting values, and each array element fitting one of the first recorded elements. `false` is "not sure", for
    /// ``violations(recorded:live:path:)`` to decide.
    static func fits(_ recorded: CassetteJSON, _ live: CassetteJSON) -> Bool {
        switch (recorded, live) {
        case (.object(let expected), .object(let actual)):
            guard expected.count == actual.count else { return false }
            return zip(expected, actual).allSatisfy { $0.key == $1.key && fits($0.value, $1.value) }
        case (.array(let expected), .array(let actual)):
            // An element fitting any recorded element fits that element's shape, one of the templates `collect` uses.
            let candidates = expected.prefix(4)
            return expected.isEmpty || actual.allSatisfy { element in candidates.contains { fits($0, element) } }
        default:
            return typeName(recorded) == typeName(live)
        }
    }

    /// Every place where `live` breaks `recorded`, each named from `path`.
    static func collect(recorded: CassetteJSON, live: CassetteJSON, path: String) -> [String] {
        switch (recorded, live) {
        case (.object(let expected), .object(let actual)):
            var result: [String] = []
            var actualByKey: [String: CassetteJSON] = [:]
            for member in actual where actualByKey[member.key] == nil { actualByKey[member.key] = member.value }
            var expectedKeys = Set<String>()
            for member in expected where !expectedKeys.contains(member.key) {
                expectedKeys.insert(member.key)
                if let value = actualByKey[member.key] {
                    result += collect(recorded: member.value, live: value, path: "\(path).\(member.key)")
                } else {
                    result.append("\(path).\(member.key): missing (recorded as \(typeName(member.value)))")
                }
            }
            var reported = Set<String>()
            for member in actual where !expectedKeys.contains(member.key) && reported.insert(member.key).inserted {
                result.append("\(path).\(member.key): unexpected key (\(typeName(member.value)))")
            }
            return result
        case (.array(let expected), .array(let actual)):
            let templates = distinctShapes(expected)
            guard !templates.isEmpty else { return [] }
            return actual.enumerated().flatMap { index, element in
                var closest: [String]?
                for template in templates {
                    let found = collect(recorded: template, live: element, path: "\(path)[\(index)]")
                    if found.isEmpty { return [String]() }
                    if closest == nil || found.count < closest!.count { closest = found }
                }
                return closest ?? []
            }
        default:
            let expectedType = typeName(recorded), actualType = typeName(live)
            return expectedType == actualType ? [] : ["\(path): expected \(expectedType), got \(actualType)"]
        }
    }

    /// `elements` with one element per distinct shape, in recorded order: a long array of alike records is
    /// checked against one of them, not all.
    static func distinctShapes(_ elements: [CassetteJSON]) -> [CassetteJSON] {
        var seen = Set<String>()
        return elements.filter { seen.insert(signature($0)).inserted }
    }

    /// A text naming the shape of `value` and nothing else: two values with the same signature break the same
    /// live values in the same way.
    static func signature(_ value: CassetteJSON) -> String {
        switch value {
        case .object(let members):
            var seen = Set<String>()
            let fields = members.filter { seen.insert($0.key).inserted }.map { "\($0.key.debugDescription):\(signature($0.value))" }
            return "{" + fields.sorted().joined(separator: ",") + "}"
        case .array(let elements):
            return "[" + Set(elements.map(signature)).sorted().joined(separator: "|") + "]"
        default:
            return typeName(value)
        }
    }
}
