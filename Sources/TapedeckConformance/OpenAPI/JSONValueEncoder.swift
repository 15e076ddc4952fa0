import Foundation
import TapedeckCore

/// An `Encoder` that builds a ``JSONValue`` directly: what `JSONEncoder` would write, read back with Tapedeck's JSON
/// parser, without the text in between (``DocumentDecoder``'s counterpart).
///
/// OpenAPIKit's model is turned back into JSON for every schema, component and example an operation's rules hold, and
/// writing and parsing that text took a fifth of `serve --openapi`'s start-up on a large document. The values are
/// those of the round trip: integers and `Decimal`s as `Double`s, a `Float` as the `Double` its shortest spelling reads
/// as, a `URL` as its absolute string, `Data` as Base64, a `Date` as `Date` encodes itself; a key encoded twice keeps
/// its last value; a value that asks for no container is an empty object. A non-finite number is refused with
/// `EncodingError.invalidValue` at its coding path, as `JSONEncoder` refuses it.
///
/// ```swift
/// let schema: JSONValue = try JSONValueEncoder.encode(OpenAPI.Components.noComponents)
/// ```
enum JSONValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let slot = Slot()
        try slot.store(value, codingPath: [])
        return slot.value
    }
}

/// A place in the value being built. A reference, because a container handed out fills its slot after the call that
/// made it has returned.
private final class Slot {
    enum Content {
        case unset
        case leaf(JSONValue)
        case object([String: Slot])
        case array([Slot])
    }

    var content = Content.unset

    /// What was built here; a value that asked for no container is an empty object, as with `JSONEncoder`.
    var value: JSONValue {
        switch content {
        case .unset: return .object([:])
        case .leaf(let value): return value
        case .object(let members): return .object(members.mapValues(\.value))
        case .array(let elements): return .array(elements.map(\.value))
        }
    }

    /// Encodes `value` into this slot, the few types `JSONEncoder` writes its own way first.
    func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let url as URL: content = .leaf(.string(url.absoluteString))
        case let data as Data: content = .leaf(.string(data.base64EncodedString()))
        case let decimal as Decimal: content = .leaf(.number(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: SlotEncoder(slot: self, codingPath: codingPath))
        }
    }

    func setMember(_ key: String, _ slot: Slot) {
        guard case .object(var members) = content else {
            content = .object([key: slot])
            return
        }
        content = .unset   // the dictionary is uniquely referenced while it changes
        members[key] = slot
        content = .object(members)
    }

    func appendElement(_ slot: Slot) {
        guard case .array(var elements) = content else {
            content = .array([slot])
            return
        }
        content = .unset
        elements.append(slot)
        content = .array(elements)
    }

    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}

private struct SlotEncoder: Encoder, SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([:]) }
        return KeyedEncodingContainer(SlotKeyedContainer(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return SlotUnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { slot.content = .leaf(.null) }
    func encode(_ value: Bool) { slot.content = .leaf(.bool(value)) }
    func encode(_ value: String) { slot.content = .leaf(.string(value)) }
    func encode(_ value: Double) throws { slot.content = .leaf(try finite(value, Double(value))) }
    func encode(_ value: Float) throws { slot.content = .leaf(try finite(value, Double("\(value)") ?? Double(value))) }
    func encode(_ value: Int) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: Int8) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: Int16) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: Int32) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: Int64) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: UInt) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: UInt8) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: UInt16) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: UInt32) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: UInt64) { slot.content = .leaf(.number(Double(value))) }
    func encode(_ value: some Encodable) throws { try slot.store(value, codingPath: codingPath) }

    /// `number`, unless `value` is infinite or not a number, which JSON cannot hold.
    private func finite(_ value: some BinaryFloatingPoint, _ number: Double) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                                                          debugDescription: "Unable to encode \(type(of: value)).\(value) directly in JSON."))
        }
        return .number(number)
    }
}

/// An array index in a coding path, named as `JSONEncoder` names it.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct SlotKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func child(_ key: some CodingKey) -> SlotEncoder {
        let child = Slot()
        slot.setMember(key.stringValue, child)
        return SlotEncoder(slot: child, codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) { child(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { child(key).encode(value) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try child(key).encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { child(SuperKey()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

/// The key `JSONEncoder` gives `superEncoder()`.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct SlotUnkeyedContainer: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.elementCount }

    private func next() -> SlotEncoder {
        let child = Slot()
        let key = IndexKey(slot.elementCount)
        slot.appendElement(child)
        return SlotEncoder(slot: child, codingPath: codingPath + [key])
    }

    mutating func encodeNil() { next().encodeNil() }
    mutating func encode(_ value: Bool) { next().encode(value) }
    mutating func encode(_ value: String) { next().encode(value) }
    mutating func encode(_ value: Double) throws { try next().encode(value) }
    mutating func encode(_ value: Float) throws { try next().encode(value) }
    mutating func encode(_ value: Int) { next().encode(value) }
    mutating func encode(_ value: Int8) { next().encode(value) }
    mutating func encode(_ value: Int16) { next().encode(value) }
    mutating func encode(_ value: Int32) { next().encode(value) }
    mutating func encode(_ value: Int64) { next().encode(value) }
    mutating func encode(_ value: UInt) { next().encode(value) }
    mutating func encode(_ value: UInt8) { next().encode(value) }
    mutating func encode(_ value: UInt16) { next().encode(value) }
    mutating func encode(_ value: UInt32) { next().encode(value) }
    mutating func encode(_ value: UInt64) { next().encode(value) }
    mutating func encode(_ value: some Encodable) throws { try next().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}
