import Foundation
import OpenAPIKit
import Yams

/// A `Decoder` over a ``DocumentNode`` tree that decodes as Foundation's `JSONDecoder` does, or for a YAML tree as
/// Yams' `YAMLDecoder` does (the same values, the same kinds of `DecodingError` at the same coding paths), but decodes each node as `AnyCodable` once and makes a
/// failed type probe cheap: what OpenAPIKit asks of a decoder thousands of times per document.
///
/// Only types whose decoding it reproduces exactly are decoded here; any other JSON primitive (`Date`, `Data`,
/// `Decimal`, `Float`) throws, so the caller falls back to `JSONDecoder`. A YAML scalar is read by the same Yams
/// function that `YAMLDecoder` calls.
///
/// ```swift
/// let tree = DocumentNode(json: try CassetteJSON.parse(bytes))
/// let document = try DocumentDecoder.decode(OpenAPI.Document.self, from: tree)
/// ```
struct DocumentDecoder: Decoder, SingleValueDecodingContainer {
    let node: DocumentNode
    let codingPath: [any CodingKey]
    /// Whether a value decoded ahead (``DecodedAhead``) is taken: not on the thread that decodes ahead.
    var takesAhead = true
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<Value: Decodable>(_ type: Value.Type, from node: DocumentNode) throws -> Value {
        try DocumentDecoder(node: node, codingPath: []).decode(type)
    }

    func child(_ node: DocumentNode, key: any CodingKey) -> DocumentDecoder {
        DocumentDecoder(node: node, codingPath: codingPath + [key], takesAhead: takesAhead)
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let keys, let members) = node.content else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(DocumentKeyedContainer(decoder: self, keys: keys, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = node.content else { throw mismatch([Any].self) }
        return DocumentUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single values

    func decodeNil() -> Bool {
        switch node.content {
        case .null: return true
        case .yaml(let scalar): return NSNull.construct(from: scalar) != nil
        default: return false
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try scalar(type) {
            guard case .bool(let value) = node.content else { throw mismatch(type) }
            return value
        }
    }

    func decode(_ type: String.Type) throws -> String {
        try scalar(type) {
            guard case .string(let value) = node.content else { throw mismatch(type) }
            return value
        }
    }

    func decode(_ type: Double.Type) throws -> Double {
        try scalar(type) {
            guard let value = Double(try numberText(type)), value.isFinite else { throw corrupted("does not fit in Double") }
            return value
        }
    }

    func decode(_ type: Float.Type) throws -> Float { try scalar(type) { throw unsupported(type) } }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if takesAhead, let ahead = node.ahead, ahead.isValue(of: type, at: codingPath), let value = try ahead.valueOrTake() {
            return value as! Value
        }
        if case .yaml(let scalar) = node.content, let constructible = type as? any ScalarConstructible.Type {
            guard let value = constructible.construct(from: scalar) as? Value else { throw mismatch(type) }
            return value
        }
        if type == AnyCodable.self { return AnyCodable(try plainValue()) as! Value }
        if type == [String: AnyCodable].self, case .object(let keys, let members) = node.content {
            var dictionary = [String: AnyCodable](minimumCapacity: keys.count)
            for key in keys { dictionary[key] = AnyCodable(try child(members[key]!, key: DocumentKey(key)).plainValue()) }
            return dictionary as! Value
        }
        if type == [AnyCodable].self, case .array(let elements) = node.content {
            return try elements.enumerated().map { AnyCodable(try child($1, key: DocumentKey($0)).plainValue()) } as! Value
        }
        if type == URL.self {
            guard let url = URL(string: try decode(String.self)) else { throw corrupted("Invalid URL string.") }
            return url as! Value
        }
        if type == URLTemplate.self {
            // OpenAPIKit throws a template's parse error as it is, with no coding path; here it says where.
            do { return try URLTemplate(templateString: try decode(String.self)) as! Value } catch let error as DecodingError {
                throw error
            } catch {
                throw corrupted(String(describing: error))
            }
        }
        if type == Date.self || type == Data.self || type == Decimal.self { throw unsupported(type) }
        return try Value(from: self)
    }

    /// The value `AnyCodable(from:)` would hold for this node, worked out once and remembered, without its probes'
    /// thrown errors (which took most of the time of an extension of many scalars): `NSNull` for null, then the first
    /// of Bool, Int, UInt, Double and String that the node reads as; a collection holds its members' values
    /// (`[any Sendable]`, `[String: any Sendable]`).
    private func plainValue() throws -> any Sendable {
        DocumentNode.plainValueLock.lock()
        let known = node.plainValue
        DocumentNode.plainValueLock.unlock()
        if let known { return known }
        let value: any Sendable
        switch node.content {
        case .null: value = NSNull()
        case .bool(let flag): value = flag
        case .string(let text): value = text
        case .number: value = try Self.plainValue(of: try AnyCodable(from: self))
        case .yaml(let scalar): value = Self.plainValue(of: scalar)
        case .array(let elements):
            value = try elements.enumerated().map { try child($1, key: DocumentKey($0)).plainValue() }
        case .object(let keys, let members):
            var dictionary = [String: any Sendable](minimumCapacity: keys.count)
            for key in keys { dictionary[key] = try child(members[key]!, key: DocumentKey(key)).plainValue() }
            value = dictionary
        }
        DocumentNode.plainValueLock.lock()
        node.plainValue = value
        DocumentNode.plainValueLock.unlock()
        return value
    }

    /// A number's value as `AnyCodable(from:)` read it (an `Int`, `UInt` or `Double`).
    private static func plainValue(of number: AnyCodable) throws -> any Sendable {
        switch number.value {
        case let value as Int: return value
        case let value as UInt: return value
        case let value as Double: return value
        default: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a number read as \(type(of: number.value))"))
        }
    }

    /// A YAML scalar as `AnyCodable(from:)` reads it through this decoder: null, or the first of Bool, Int, UInt,
    /// Double and String that Yams reads it as.
    private static func plainValue(of scalar: Node.Scalar) -> any Sendable {
        if NSNull.construct(from: scalar) != nil { return NSNull() }
        if let value = Bool.construct(from: scalar) { return value }
        if mayBeNumber(scalar.string, as: Int.self), let value = Int.construct(from: scalar) { return value }
        if mayBeNumber(scalar.string, as: UInt.self), let value = UInt.construct(from: scalar) { return value }
        if mayBeNumber(scalar.string, as: Double.self), let value = Double.construct(from: scalar) { return value }
        return scalar.string   // what String.construct(from:) reads
    }

    /// An integer as `JSONDecoder` reads one: exactly from its digits, or from a fraction or exponent whose value is
    /// a whole number in range (`1.0`, `1e2`).
    private func integer<Value: FixedWidthInteger & ScalarConstructible>(_ type: Value.Type) throws -> Value {
        try scalar(type) {
            let text = try numberText(type)
            if let value = Value(text, radix: 10) { return value }
            if let double = Double(text), double.isFinite, let value = Value(exactly: double) { return value }
            throw corrupted("Number \(text) does not fit in \(type).")
        }
    }

    /// A YAML scalar read by Yams' rules for `type`, or else `json`'s reading.
    private func scalar<Value: ScalarConstructible>(_ type: Value.Type, json: () throws -> Value) throws -> Value {
        guard case .yaml(let scalar) = node.content else { return try json() }
        guard Self.mayBeNumber(scalar.string, as: type), let value = Value.construct(from: scalar) else { throw mismatch(type) }
        return value
    }

    /// `false` when Yams' constructor for the number type `type` cannot read `text`, found without it: `AnyCodable`
    /// tries Int, UInt and Double on every scalar, and Yams' number constructors go through Foundation's string
    /// search and replace (about 20 µs a try), which made a 77,000-scalar extension take 5.6 s to read. Yams reads
    /// a number only when, underscores left out, at most two signs (one before a sexagesimal `1:30`, one in its
    /// first part) come before a digit, or for a floating-point type before `.` (`.5`, `.inf`), `inf`, `infinity`,
    /// `nan` or `snan` in any case. `true` for other types and for text that may be a number: Yams decides.
    static func mayBeNumber(_ text: String, as type: Any.Type) -> Bool {
        let isFloatingPoint = type == Double.self || type == Float.self
        guard isFloatingPoint || type is any FixedWidthInteger.Type else { return true }
        var signs = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "_"):
                continue
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                signs += 1
                if signs > 2 { return false }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "."), UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "n"), UInt8(ascii: "N"),
                 UInt8(ascii: "s"), UInt8(ascii: "S"):
                return isFloatingPoint
            default:
                return false
            }
        }
        return false
    }

    private func numberText(_ type: Any.Type) throws -> String {
        switch node.content {
        case .number(let text): return text
        case .null: throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null instead"))
        default: throw mismatch(type)
        }
    }

    // MARK: Errors

    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = node.content {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null instead"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found another kind of value."))
    }

    private func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
    }

    private func unsupported(_ type: Any.Type) -> DecodingError {
        corrupted("\(type) is decoded by JSONDecoder only")
    }
}

/// A member name, or an array index named as `JSONDecoder` names it ("Index 3").
struct DocumentKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }

    static let `super` = DocumentKey("super")
}

private struct DocumentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: DocumentDecoder
    let keys: [String]
    let members: [String: DocumentNode]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func child(_ key: Key) throws -> DocumentDecoder {
        guard let node = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return decoder.child(node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try child(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    /// As `JSONDecoder`: a missing member gives a decoder over `null`.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(members[key.stringValue] ?? DocumentNode(.null), key: key)
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members["super"] ?? DocumentNode(.null), key: DocumentKey.super)
    }
}

private struct DocumentUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: DocumentDecoder
    let elements: [DocumentNode]
    var currentIndex = 0

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func current(_ type: Any.Type) throws -> DocumentDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [DocumentKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        return decoder.child(elements[currentIndex], key: DocumentKey(currentIndex))
    }

    /// Decodes the current element and moves past it only when that succeeded, as `JSONDecoder` does.
    private mutating func next<Value>(_ type: Value.Type, _ decode: (DocumentDecoder) throws -> Value) throws -> Value {
        let value = try decode(try current(type))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Any?.self).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try next(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { $0 as any Decoder }
    }
}
