import Foundation
import TapedeckCore

/// Makes a JSON value a schema accepts, the same for the same seed: the body of a mock response whose operation
/// documents no example.
///
/// A schema's own `const`, `examples`/`example`, `default` or `enum` is used first. Otherwise the value is built from
/// `type` (inferred from other keywords when absent) and its bounds: objects get their `properties` (optional ones
/// only near the top, so recursive schemas end) and enough members for `minProperties`; arrays get `minItems`
/// elements (at least one near the top); strings follow `format` (date-time, date, time, email, uri, uuid, ipv4, ipv6,
/// hostname, byte) and the length bounds; numbers stay within `minimum`/`maximum` and on `multipleOf`. `allOf` parts
/// are merged, and `oneOf`/`anyOf` pick one alternative; a `pattern` of the common kind is sampled
/// (``PatternSampler``). The caller checks the result against the compiled schema.
///
/// What it makes is bounded, so a document cannot make the mock grow without end: a schema that asks for more than
/// ``maximumItems`` array items, ``maximumProperties`` object members or ``maximumLength`` characters in a string,
/// nests deeper than ``maximumDepth`` through required members, follows more than ``maximumHops`` `$ref`/`allOf`/
/// `oneOf` steps in a row, or needs more than ``maximumValues`` values in all, is refused with the limit named.
struct SchemaValueGenerator {
    /// What `$ref`s point into.
    let root: JSONValue
    var random: SplitMix64

    /// Below this depth optional members and array elements are left out.
    static let optionalDepth = 3
    /// Beyond this depth a recursive schema is not followed further.
    static let maximumDepth = 24
    /// The most items an array (`minItems`), members an object (`minProperties`) and characters a string
    /// (`minLength`) may be asked to have.
    static let maximumItems = 10_000
    static let maximumProperties = 10_000
    static let maximumLength = 100_000
    /// The most subschemas followed without stepping into the value (`$ref`, `allOf`, `oneOf`, `anyOf`).
    static let maximumHops = 64
    /// The most values (of any kind, at any depth) one generated value may hold.
    static let maximumValues = 100_000

    /// Values made so far for the current top-level value.
    private var made = 0
    /// Subschemas followed in a row without stepping into the value.
    private var hops = 0

    /// Why no value could be made.
    struct Problem: Error, CustomStringConvertible {
        /// The JSON pointer inside the schema being generated.
        let pointer: String
        let reason: String

        var description: String { "\(pointer.isEmpty ? "/" : pointer): \(reason)" }
    }

    init(root: JSONValue, seed: UInt64) {
        self.root = root
        random = SplitMix64(seed: seed)
    }

    /// A value for `schema`; `pointer` is where the generated value sits, for problems.
    mutating func value(for schema: JSONValue, at pointer: String = "", depth: Int = 0) throws(Problem) -> JSONValue {
        if pointer.isEmpty, depth == 0, hops == 0 { made = 0 }
        guard depth <= Self.maximumDepth else {
            throw Problem(pointer: pointer, reason: "the schema nests deeper than \(Self.maximumDepth) levels through required members")
        }
        made += 1
        guard made <= Self.maximumValues else {
            throw Problem(pointer: pointer, reason: "the value would hold more than \(Self.maximumValues) values; document an example")
        }
        switch schema {
        case .bool(true): return .string(word())
        case .bool(false): throw Problem(pointer: pointer, reason: "the schema is false and accepts no value")
        case .object(let keywords): return try value(for: keywords, at: pointer, depth: depth)
        default: throw Problem(pointer: pointer, reason: "a schema must be an object or a boolean")
        }
    }

    /// `value(for:)` for a subschema that applies to the same value (`$ref`, `allOf`, `oneOf`, `anyOf`).
    private mutating func sameValue(for schema: JSONValue, at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        guard hops < Self.maximumHops else {
            throw Problem(pointer: pointer, reason: "more than \(Self.maximumHops) $ref, allOf, oneOf or anyOf steps in a row "
                          + "without reaching a value (a $ref loop?)")
        }
        hops += 1
        defer { hops -= 1 }
        made -= 1  // The same value, counted once.
        return try value(for: schema, at: pointer, depth: depth)
    }

    /// `value(for:)` for a part of the value (a member, an item): the count of steps in a row starts again.
    private mutating func partValue(for schema: JSONValue, at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        let saved = hops
        hops = 0
        defer { hops = saved }
        return try value(for: schema, at: pointer, depth: depth)
    }

    private mutating func value(for keywords: [String: JSONValue], at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        if let reference = keywords["$ref"]?.stringValue {
            guard let target = SchemaReference.target(of: reference, in: root) else {
                throw Problem(pointer: pointer, reason: "$ref '\(Shown.truncated(reference))' points at nothing in the document")
            }
            var rest = keywords
            rest["$ref"] = nil
            let siblings = rest.keys.contains { !Self.annotations.contains($0) }
            return try sameValue(for: siblings ? ["allOf": [target, .object(rest)]] : target, at: pointer, depth: depth)
        }
        if let constant = keywords["const"] { return constant }
        if let example = keywords["examples"]?.arrayValue?.first ?? keywords["example"] { return example }
        if let fallback = keywords["default"] { return fallback }
        if let choices = keywords["enum"]?.arrayValue, !choices.isEmpty { return choices[pick(choices.count)] }
        if let parts = keywords["allOf"]?.arrayValue, !parts.isEmpty {
            return try merged(parts, with: keywords, at: pointer, depth: depth)
        }
        if let alternatives = (keywords["oneOf"] ?? keywords["anyOf"])?.arrayValue, !alternatives.isEmpty {
            var rest = keywords
            rest["oneOf"] = nil
            rest["anyOf"] = nil
            let chosen = alternatives[pick(alternatives.count)]
            return try sameValue(for: rest.isEmpty ? chosen : ["allOf": [chosen, .object(rest)]], at: pointer, depth: depth)
        }
        switch Self.type(of: keywords) {
        case "null": return .null
        case "boolean": return .bool(random.next() & 1 == 1)
        case "integer": return .number(try number(keywords, integral: true, at: pointer))
        case "number": return .number(try number(keywords, integral: false, at: pointer))
        case "array": return try array(keywords, at: pointer, depth: depth)
        case "object": return try object(keywords, at: pointer, depth: depth)
        default: return .string(try string(keywords, at: pointer))
        }
    }

    /// Keywords that describe a schema without constraining it.
    private static let annotations: Set<String> = ["description", "title", "summary", "deprecated", "readOnly", "writeOnly", "$comment"]

    /// The type to make: the first non-null of `type`, or the one other keywords imply.
    static func type(of keywords: [String: JSONValue]) -> String {
        if let name = keywords["type"]?.stringValue { return name }
        if let names = keywords["type"]?.arrayValue?.compactMap(\.stringValue), !names.isEmpty {
            return names.first { $0 != "null" } ?? "null"
        }
        if keywords["properties"] != nil || keywords["required"] != nil || keywords["additionalProperties"] != nil { return "object" }
        if keywords["items"] != nil || keywords["prefixItems"] != nil || keywords["minItems"] != nil { return "array" }
        if keywords["minimum"] != nil || keywords["maximum"] != nil || keywords["multipleOf"] != nil { return "number" }
        return "string"
    }

    /// `allOf`: the parts' values merged member by member when they are objects, else the last part's value.
    private mutating func merged(_ parts: [JSONValue], with keywords: [String: JSONValue], at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        var rest = keywords
        rest["allOf"] = nil
        var values: [JSONValue] = []
        for part in parts + (rest.keys.contains { !Self.annotations.contains($0) } ? [.object(rest)] : []) {
            values.append(try sameValue(for: part, at: pointer, depth: depth))
        }
        guard values.allSatisfy({ $0.objectValue != nil }) else { return values.last ?? .null }
        var members: [String: JSONValue] = [:]
        for value in values { members.merge(value.objectValue ?? [:]) { _, later in later } }
        return .object(members)
    }

    private mutating func object(_ keywords: [String: JSONValue], at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        let properties = keywords["properties"]?.objectValue ?? [:]
        let required = Set(keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var members: [String: JSONValue] = [:]
        for name in properties.keys.sorted() where required.contains(name) || depth < Self.optionalDepth {
            let schema = properties[name] ?? .bool(true)
            if !required.contains(name), depth > 0, Self.pointsElsewhere(schema) { continue }
            members[name] = try partValue(for: schema, at: JSONPointer.appending(name, to: pointer), depth: depth + 1)
        }
        for name in required.sorted() where members[name] == nil {
            let schema = keywords["additionalProperties"].flatMap { $0.objectValue != nil ? $0 : nil } ?? .bool(true)
            members[name] = try partValue(for: schema, at: JSONPointer.appending(name, to: pointer), depth: depth + 1)
        }
        let minimum = keywords["minProperties"]?.intValue ?? 0
        guard minimum <= Self.maximumProperties else {
            throw Problem(pointer: pointer, reason: "minProperties \(minimum) is more than the \(Self.maximumProperties) members "
                          + "the mock makes; document an example")
        }
        var extra = 1
        while members.count < minimum, extra <= minimum {
            let schema = keywords["additionalProperties"].flatMap { $0.objectValue != nil ? $0 : nil } ?? .bool(true)
            members["property\(extra)"] = try partValue(for: schema, at: JSONPointer.appending("property\(extra)", to: pointer), depth: depth + 1)
            extra += 1
        }
        return .object(members)
    }

    /// Whether a member's schema is (or lists) another component: optional ones are left out below the top, so a
    /// recursive schema (a tree, a linked list) stays small.
    private static func pointsElsewhere(_ schema: JSONValue) -> Bool {
        schema["$ref"] != nil || schema["items"]?["$ref"] != nil
    }

    private mutating func array(_ keywords: [String: JSONValue], at pointer: String, depth: Int) throws(Problem) -> JSONValue {
        let minimum = keywords["minItems"]?.intValue ?? 0
        let maximum = max(0, keywords["maxItems"]?.intValue ?? Int.max)
        let prefix = keywords["prefixItems"]?.arrayValue ?? []
        guard minimum <= Self.maximumItems else {
            throw Problem(pointer: pointer, reason: "minItems \(minimum) is more than the \(Self.maximumItems) items "
                          + "the mock makes; document an example")
        }
        let count = min(maximum, max(minimum, depth < Self.optionalDepth ? max(1, prefix.count) : 0))
        var elements: [JSONValue] = []
        for position in 0..<count {
            let schema = position < prefix.count ? prefix[position] : keywords["items"] ?? .bool(true)
            var element = try partValue(for: schema, at: JSONPointer.appending(String(position), to: pointer), depth: depth + 1)
            // uniqueItems: a few more draws when an element repeats (an enum of one value cannot be helped).
            var attempts = 0
            while keywords["uniqueItems"]?.boolValue == true, elements.contains(element), attempts < 8 {
                element = try partValue(for: schema, at: JSONPointer.appending(String(position), to: pointer), depth: depth + 1)
                attempts += 1
            }
            elements.append(element)
        }
        return .array(elements)
    }

    private mutating func number(_ keywords: [String: JSONValue], integral: Bool, at pointer: String) throws(Problem) -> Double {
        var low = keywords["minimum"]?.doubleValue ?? -Double.infinity
        var high = keywords["maximum"]?.doubleValue ?? Double.infinity
        let step = keywords["multipleOf"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil } ?? (integral ? 1 : 0.01)
        // 2020-12 writes exclusive bounds as numbers, 3.0 as booleans beside minimum/maximum.
        if let bound = keywords["exclusiveMinimum"]?.doubleValue { low = max(low, bound + step) }
        if let bound = keywords["exclusiveMaximum"]?.doubleValue { high = min(high, bound - step) }
        if keywords["exclusiveMinimum"]?.boolValue == true { low += step }
        if keywords["exclusiveMaximum"]?.boolValue == true { high -= step }
        if low == -Double.infinity { low = high == Double.infinity ? 1 : min(1, high - 99 * step) }
        if high == Double.infinity { high = low + 99 * step }
        let first = (low / step).rounded(.up)
        let last = (high / step).rounded(.down)
        guard first.isFinite, last.isFinite else {
            throw Problem(pointer: pointer, reason: "the bounds \(low) and \(high) are too far apart for steps of \(step)")
        }
        guard first <= last else {
            throw Problem(pointer: pointer, reason: "no multiple of \(step) lies between \(low) and \(high)")
        }
        let span = UInt64(min(last - first, 1_000_000))
        let chosen = (first + Double(random.next() % (span + 1))) * step
        return integral ? chosen.rounded() : (chosen * 100).rounded() / 100
    }

    private mutating func string(_ keywords: [String: JSONValue], at pointer: String) throws(Problem) -> String {
        let minimum = keywords["minLength"]?.intValue ?? 0
        guard minimum <= Self.maximumLength else {
            throw Problem(pointer: pointer, reason: "minLength \(minimum) is more than the \(Self.maximumLength) characters "
                          + "the mock makes; document an example")
        }
        if let pattern = keywords["pattern"]?.stringValue, let sampled = PatternSampler.sample(pattern, using: &random) {
            return sampled
        }
        var text: String
        let n = random.next()
        switch keywords["format"]?.stringValue {
        case "date-time": text = "\(Self.date(n))T\(Self.time(n >> 20))Z"
        case "date": text = Self.date(n)
        case "time": text = Self.time(n) + "Z"
        case "email": text = "\(word())\(n % 100)@example.com"
        case "uri", "url", "uri-reference", "iri": text = "https://example.com/\(word())/\(n % 1000)"
        case "uuid": text = Self.uuid(n, random.next())
        case "ipv4": text = "192.0.2.\(n % 254 + 1)"
        case "ipv6": text = "2001:db8::\(String(n % 0xFFFF + 1, radix: 16))"
        case "hostname": text = "\(word()).example.com"
        case "byte": text = Data("\(word())\(n % 1000)".utf8).base64EncodedString()
        default: text = "\(word())\(n % 1000)"
        }
        let maximum = max(0, keywords["maxLength"]?.intValue ?? Int.max)
        var length = text.unicodeScalars.count
        while length < minimum {
            let next = word()
            text += next
            length += next.unicodeScalars.count
        }
        if text.unicodeScalars.count > maximum { text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(maximum))) }
        return text
    }

    private static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
                                "kilo", "lima", "mike", "november", "oscar", "papa"]

    private mutating func word() -> String { Self.words[pick(Self.words.count)] }

    private mutating func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    private static func date(_ n: UInt64) -> String {
        let year = 2020 + Int(n % 7)
        let month = 1 + Int((n >> 8) % 12)
        let day = 1 + Int((n >> 16) % 28)
        return "\(year)-\(two(month))-\(two(day))"
    }

    private static func time(_ n: UInt64) -> String {
        "\(two(Int(n % 24))):\(two(Int((n >> 8) % 60))):\(two(Int((n >> 16) % 60)))"
    }

    private static func uuid(_ high: UInt64, _ low: UInt64) -> String {
        let hex = (high.paddedHex + low.paddedHex).map { String($0) }
        // Version 4, variant 10xx, as random UUIDs are written.
        var digits = hex
        digits[12] = "4"
        digits[16] = ["8", "9", "a", "b"][Int(low % 4)]
        let text = digits.joined()
        let parts = [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4), text.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
