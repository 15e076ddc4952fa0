/// An ordered list of HTTP header fields. Names compare case-insensitively; order and duplicates are kept,
/// so what was sent or received can be reproduced byte for byte.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers.add(name: "X-Trace", value: "1")
/// headers["accept"]  // "application/json"
/// ```
public struct HTTPHeaders: Hashable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Hashable, Sendable {
        /// The name as written, e.g. `Content-Type`.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    /// Creates headers from fields, in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from `(name, value)` pairs in order.
    public init(_ pairs: [(String, String)]) {
        self.fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal, `["Accept": "application/json"]`, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`, in the order the fields were added.
    public subscript(position: Int) -> Field { fields[position] }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name, or removes them
    /// when set to `nil`.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces the first field named `name` in place and drops the others, or appends one if there is none.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
            add(name: name, value: value)
            return
        }
        fields[first].value = value
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if fields[index].name.caseInsensitiveEquals(name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }
}

extension HTTPHeaders: CustomStringConvertible {
    /// How messages and reports print it.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names use.
    @inlinable
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native strings (nearly all) are compared in place, byte by byte.
        let inPlace = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                for index in mine.indices where !Self.sameIgnoringASCIICase(mine[index], theirs[index]) { return false }
                return true
            }
        }
        if let inPlace = inPlace ?? nil { return inPlace }
        return zip(utf8, other.utf8).allSatisfy(Self.sameIgnoringASCIICase)
    }

    @usableFromInline
    package static func sameIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
    }
}

extension HTTPHeaders {
    /// The `Content-Length` header as a number, when present and valid: digits only, with optional whitespace around
    /// them (no Foundation trimming: this runs for every response).
    package var contentLength: Int64? {
        guard let value = self["Content-Length"] else { return nil }
        var length: Int64 = 0
        var digits = 0
        var trailingSpace = false
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                trailingSpace = digits > 0
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !trailingSpace && digits < 18:
                length = length * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
            default:
                return nil
            }
        }
        return digits > 0 ? length : nil
    }
}
