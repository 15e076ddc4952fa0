/// A JSON value that keeps object keys in their original order and numbers as their literal text, so a document
/// read and written again comes out byte for byte the same. Cassette files, HAR files and structured bodies use it.
///
/// ```swift
/// let value = try CassetteJSON.parse(Data(#"{"b":1,"a":[true,null]}"#.utf8))
/// value["b"]                        // .number("1")
/// CassetteJSON.serialize(value)     // the same bytes back
/// ```
public enum CassetteJSON: Hashable, Sendable {
    /// One key and value of an object, in document order.
    public struct Member: Hashable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: CassetteJSON

        /// Creates a member.
        public init(_ key: String, _ value: CassetteJSON) {
            self.key = key
            self.value = value
        }
    }

    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number, as its literal text (e.g. `"1.50"`), so no precision or spelling is lost.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([CassetteJSON])
    /// An object whose members keep their order (duplicates are kept too).
    case object([Member])

    /// The value of the first member named `key` of an object, or `nil`.
    public subscript(key: String) -> CassetteJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A number from an integer.
    public static func integer<I: BinaryInteger>(_ value: I) -> CassetteJSON {
        // `Int64.description` is the specialised fast path; the generic `String(_:)` goes through `String(_:radix:)`.
        .number(Int64(exactly: value)?.description ?? String(value))
    }

    /// A number from a double, in Swift's shortest round-tripping spelling.
    public static func double(_ value: Double) -> CassetteJSON {
        .number(JSONWriter.wholeNumber(value).map { String($0) } ?? String(value))
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as an `Int`, when this is an integral number.
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) ?? Double(text).flatMap { Int(exactly: $0) } }
        return nil
    }

    /// The number as a `Double`.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [CassetteJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Equality that ignores the order of object keys and compares numbers by value; members whose dotted path
    /// (e.g. `user.id`, `items.*.ts`, with `*` for any array index or key) is in `ignoring` are skipped.
    public func semanticallyEquals(_ other: CassetteJSON, ignoring paths: Set<JSONPath> = [], path: String = "") -> Bool {
        firstDifference(from: other, ignoring: paths, path: path) == nil
    }

    /// The dotted path of the first place where `self` and `other` differ semantically, or `nil` when they agree.
    /// The root is reported as `$`.
    public func firstDifference(from other: CassetteJSON, ignoring paths: Set<JSONPath> = [], path: String = "") -> String? {
        if !path.isEmpty, JSONPathPattern.matches(path, any: paths) { return nil }
        return firstDifference(from: other, ignoring: paths.isEmpty ? .none : IgnoredPaths(paths, at: path), path: path)
    }

    /// ``firstDifference(from:ignoring:path:)`` at a place that is not ignored itself, with `ignored` followed to it.
    private func firstDifference(from other: CassetteJSON, ignoring ignored: IgnoredPaths, path: String) -> String? {
        func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        let here = path.isEmpty ? "$" : path
        switch (self, other) {
        case (.null, .null):
            return nil
        case (.bool(let a), .bool(let b)):
            return a == b ? nil : here
        case (.string(let a), .string(let b)):
            return a == b ? nil : here
        case (.number(let a), .number(let b)):
            if a == b { return nil }
            return Double(a) == Double(b) ? nil : here
        case (.array(let a), .array(let b)):
            for index in 0..<max(a.count, b.count) {
                guard let below = ignored.below(index: index) else { continue }
                guard index < a.count, index < b.count else { return child("\(index)") }
                if let difference = a[index].firstDifference(from: b[index], ignoring: below, path: child("\(index)")) {
                    return difference
                }
            }
            return nil
        case (.object(let a), .object(let b)):
            var right: [String: CassetteJSON] = [:]
            for member in b { right[member.key] = member.value }
            var seen = Set<String>()
            for member in a {
                seen.insert(member.key)
                guard let below = ignored.below(member.key) else { continue }
                guard let counterpart = right[member.key] else { return child(member.key) }
                if let difference = member.value.firstDifference(from: counterpart, ignoring: below, path: child(member.key)) {
                    return difference
                }
            }
            for member in b where !seen.contains(member.key) {
                if ignored.below(member.key) != nil { return child(member.key) }
            }
            return nil
        default:
            return here
        }
    }
}

extension CassetteJSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    /// An array literal.
    public init(arrayLiteral elements: CassetteJSON...) { self = .array(elements) }
    /// An object literal; members keep the literal's order.
    public init(dictionaryLiteral elements: (String, CassetteJSON)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}
