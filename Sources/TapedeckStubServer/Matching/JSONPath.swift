import Foundation
import TapedeckCore

/// A JSONPath expression of the simple kind stubs use to look into a JSON body: `$`, then members (`.name`,
/// `['name']`), array elements (`[0]`, `[-1]` from the end) and wildcards (`.*`, `[*]`). Deep scans (`..`), filters
/// (`[?(@.x == 1)]`), slices, unions and functions are refused with ``Error``.
///
/// ```swift
/// let path = try JSONPath("$.items[0].id")
/// path.texts(in: ["items": [["id": 7]]])   // ["7"]
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// Why an expression is not one this type evaluates.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable, Sendable {
        /// The expression as given.
        public var expression: String
        /// What is wrong with it.
        public var reason: String
        /// How messages and reports print it.
        public var description: String { "unsupported JSONPath \"\(expression)\": \(reason)" }
    }

    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case wildcard
    }

    /// The expression as given.
    public let expression: String
    let steps: [Step]

    /// Parses `expression`.
    public init(_ expression: String) throws(Error) {
        self.expression = expression
        steps = try Self.parse(expression)
    }

    /// Whether the expression selects at most one value (no wildcard).
    public var isDefinite: Bool { !steps.contains(.wildcard) }

    /// The values the expression selects in `json`, in document order (object members by name).
    public func select(in json: JSONValue) -> [JSONValue] {
        var current = [json]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch (step, value) {
                case (.member(let name), .object(let members)):
                    if let member = members[name] { next.append(member) }
                case (.index(let index), .array(let elements)):
                    let position = index < 0 ? elements.count + index : index
                    if elements.indices.contains(position) { next.append(elements[position]) }
                case (.wildcard, .array(let elements)):
                    next += elements
                case (.wildcard, .object(let members)):
                    next += members.keys.sorted().map { members[$0]! }
                default:
                    break
                }
            }
            current = next
        }
        return current
    }

    /// Whether the expression finds something in `json`, as WireMock's `matchesJsonPath` without a value pattern
    /// decides: a definite path must select a value that is not `null`, an empty array or an empty object; a path
    /// with a wildcard must select at least one value.
    public func hasMatch(in json: JSONValue) -> Bool {
        let selected = select(in: json)
        guard isDefinite else { return !selected.isEmpty }
        guard let value = selected.first else { return false }
        switch value {
        case .null: return false
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        default: return true
        }
    }

    /// The text a value pattern is checked against: for a definite path, the selected value (a string as is,
    /// anything else as compact JSON), none when nothing is selected; for a path with a wildcard, the selected values
    /// as one compact JSON array.
    public func texts(in json: JSONValue) -> [String] {
        let selected = select(in: json)
        if isDefinite { return selected.map(\.templateText) }
        return [JSONValue.array(selected).templateText]
    }

    /// How messages and reports print it.
    public var description: String { expression }

    /// Whether two paths were written the same way.
    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.expression == rhs.expression }
    /// Hashes the expression text, which `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(expression) }

    private static func parse(_ expression: String) throws(Error) -> [Step] {
        func fail(_ reason: String) -> Error { Error(expression: expression, reason: reason) }
        let characters = Array(expression)
        guard characters.first == "$" else { throw fail("it must start with \"$\"") }
        var steps: [Step] = []
        var position = 1
        while position < characters.count {
            switch characters[position] {
            case ".":
                position += 1
                guard position < characters.count else { throw fail("it ends with \".\"") }
                if characters[position] == "." { throw fail("deep scan (\"..\") is not supported") }
                if characters[position] == "*" {
                    steps.append(.wildcard)
                    position += 1
                    continue
                }
                let start = position
                while position < characters.count, characters[position] != ".", characters[position] != "[" {
                    if characters[position] == "(" { throw fail("functions (\"\(String(characters[start...]))\") are not supported") }
                    position += 1
                }
                guard position > start else { throw fail("a member name is missing after \".\"") }
                steps.append(.member(String(characters[start..<position])))
            case "[":
                guard let close = characters[position...].firstIndex(of: "]") else { throw fail("\"[\" is not closed") }
                let inside = String(characters[(position + 1)..<close]).trimmingCharacters(in: .whitespaces)
                if inside.hasPrefix("?") { throw fail("filter expressions (\"[?(...)]\") are not supported") }
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let index = Int(inside) {
                    steps.append(.index(index))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
                    let name = String(inside.dropFirst().dropLast())
                    if name.contains(quote) { throw fail("several names in one bracket (\"['a','b']\") are not supported") }
                    steps.append(.member(name))
                } else {
                    throw fail("\"[\(inside)]\" is not supported: use [N], [*] or ['name']")
                }
                position = close + 1
            default:
                throw fail("unexpected \"\(characters[position])\" at character \(position + 1)")
            }
        }
        return steps
    }
}
