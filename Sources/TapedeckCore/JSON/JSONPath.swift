import Foundation

/// A path into a JSON document, in the one syntax every part of Tapedeck reads (see <doc:JSONPaths>): JSONPath as
/// RFC 9535 writes it for `$`, members (`.name`, `['name']`), array elements (`[0]`, `[-1]` from the end) and
/// wildcards (`.*`, `[*]`), or the dotted shorthand `name.0.*` (no `$`), where a step names an object member or an
/// array index and `*` stands for any. Deep scans (`..`), filters, slices, unions and functions are refused with
/// ``Error``, which names the character where the expression goes wrong.
///
/// ```swift
/// let path: JSONPath = "$.items[0].id"                     // a literal; one it does not evaluate stops the program
/// path.select(in: ["items": [["id": 7]]] as JSONValue)     // [7]
/// let typed = try JSONPath(userInput)                      // text from elsewhere throws JSONPath.Error
/// JSONPath("items.*.id").select(in: document)              // the shorthand of $.items[*].id
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Why an expression is not one this type evaluates.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable, Sendable {
        /// The expression as given.
        public var expression: String
        /// The character (counted from 1) where the expression goes wrong.
        public var position: Int
        /// What is wrong with it.
        public var reason: String
        /// How messages and reports print it.
        public var description: String { "unsupported JSONPath \"\(expression)\" at character \(position): \(reason)" }
    }

    /// One step down the document.
    public enum Step: Sendable, Hashable {
        /// `.name` or a shorthand step: the object member of that name, or the array element whose index is written
        /// so (`0`, not `00`).
        case name(String)
        /// `['name']`: the object member of that name.
        case member(String)
        /// `[N]`: the array element at `N`, counted from the end when negative.
        case index(Int)
        /// `*`: every member or element.
        case wildcard
    }

    /// The expression as given.
    public let expression: String
    /// Its steps from the root (for a reader of another tool's paths, such as Pact's matching rules).
    public let steps: [Step]

    /// Parses `expression`: JSONPath when it is `$` or starts with `$.` or `$[`, the dotted shorthand otherwise.
    public init(_ expression: String) throws(Error) {
        self.expression = expression
        if expression == "$" || expression.hasPrefix("$.") || expression.hasPrefix("$[") {
            steps = try Self.parse(expression)
        } else {
            steps = Self.dotted(expression)
        }
    }

    /// Reads `expression` in the dotted shorthand whatever it starts with (a place a walk reported, such as
    /// `items.0.id`); it cannot fail.
    public init(dotted expression: String) {
        self.expression = expression
        steps = Self.dotted(expression)
    }

    /// A path written in the source; one this type does not evaluate stops the program with the ``Error``.
    public init(stringLiteral expression: String) {
        do { self = try JSONPath(expression) } catch { preconditionFailure(error.description) }
    }

    /// Whether the expression selects at most one value (no wildcard).
    public var isDefinite: Bool { !steps.contains(.wildcard) }

    /// Whether a step counts an array from its end (`[-1]`), which a place named before the array's length is known
    /// (``matches(dottedLocation:)``) never matches.
    public var countsFromTheEnd: Bool {
        steps.contains { if case .index(let index) = $0 { index < 0 } else { false } }
    }

    /// `place` one member down, as messages name places: `.name`, or `['name']` for a name of anything but letters,
    /// digits and `_` (`$.paths['/pets'].get`).
    package static func member(_ name: String, of place: String) -> String {
        let plain = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return plain ? "\(place).\(name)" : "\(place)['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
    }

    /// How messages and reports print it: the expression as given.
    public var description: String { expression }

    /// Whether two paths were written the same way.
    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.expression == rhs.expression }
    /// Hashes the expression text, which `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(expression) }

    private static func dotted(_ expression: String) -> [Step] {
        expression.split(separator: ".", omittingEmptySubsequences: false).map { $0 == "*" ? .wildcard : .name(String($0)) }
    }

    private static func parse(_ expression: String) throws(Error) -> [Step] {
        let characters = Array(expression)
        func fail(_ reason: String, at index: Int) -> Error { Error(expression: expression, position: index + 1, reason: reason) }
        var steps: [Step] = []
        var position = 1
        while position < characters.count {
            switch characters[position] {
            case ".":
                position += 1
                guard position < characters.count else { throw fail("it ends with \".\"", at: position - 1) }
                if characters[position] == "." { throw fail("deep scan (\"..\") is not supported", at: position - 1) }
                if characters[position] == "*" {
                    steps.append(.wildcard)
                    position += 1
                    continue
                }
                let start = position
                while position < characters.count, characters[position] != ".", characters[position] != "[" {
                    if characters[position] == "(" {
                        throw fail("functions (\"\(String(characters[start...]))\") are not supported", at: start)
                    }
                    position += 1
                }
                guard position > start else { throw fail("a member name is missing after \".\"", at: start - 1) }
                steps.append(.name(String(characters[start..<position])))
            case "[":
                guard let close = characters[position...].firstIndex(of: "]") else { throw fail("\"[\" is not closed", at: position) }
                let inside = String(characters[(position + 1)..<close]).trimmingCharacters(in: .whitespaces)
                if inside.hasPrefix("?") { throw fail("filter expressions (\"[?(...)]\") are not supported", at: position) }
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let index = Int(inside) {
                    steps.append(.index(index))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
                    let name = String(inside.dropFirst().dropLast())
                    if name.contains(quote) { throw fail("several names in one bracket (\"['a','b']\") are not supported", at: position) }
                    steps.append(.member(name))
                } else {
                    throw fail("\"[\(inside)]\" is not supported: use [N], [*] or ['name']", at: position)
                }
                position = close + 1
            default:
                throw fail("unexpected \"\(characters[position])\"", at: position)
            }
        }
        return steps
    }
}
