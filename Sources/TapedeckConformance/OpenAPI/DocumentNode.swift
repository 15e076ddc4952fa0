import Foundation
import OpenAPIKit
import TapedeckCore
import Yams

/// A JSON document parsed once into a tree that ``DocumentDecoder`` decodes OpenAPIKit's types from: objects keep
/// their members' order, numbers keep their spelling (so an integer is read exactly, as `JSONDecoder` reads it), and
/// each node remembers what it decoded to as `AnyCodable`.
///
/// That last part is the point. OpenAPIKit reads every object's vendor extensions by decoding the whole object as
/// `AnyCodable` (a dictionary of everything below it), so with `JSONDecoder` each value is decoded again for each
/// object above it, and each `AnyCodable` probes Bool, Int, UInt, Double and String by throwing errors. Here each
/// node is decoded as `AnyCodable` once, and a failed probe costs one small error.
final class DocumentNode {
    enum Content {
        case null
        case bool(Bool)
        /// A number as spelled in the document (`-12`, `1.5e3`).
        case number(String)
        case string(String)
        case array([DocumentNode])
        /// Members in document order; a repeated name keeps its first value, as `JSONDecoder` does.
        case object(keys: [String], members: [String: DocumentNode])
        /// A YAML scalar, read by Yams' own rules (`ScalarConstructible`), as `YAMLDecoder` reads it.
        case yaml(Node.Scalar)
    }

    let content: Content
    /// This node decoded as `AnyCodable`, once asked for.
    var anyCodable: AnyCodable?

    init(_ content: Content) {
        self.content = content
    }

    /// The node of the JSON text in `bytes` (UTF-8, no byte-order mark), or `nil` when it is not strictly JSON.
    /// `nil` sends the caller to `JSONDecoder`, whose verdict and messages stay the reference, so this parser only
    /// has to be right about valid text and never accept what `JSONDecoder` refuses.
    static func parse(json bytes: some Collection<UInt8>) -> DocumentNode? {
        let array = Array(bytes)
        return array.withUnsafeBytes { raw in
            var parser = DocumentJSONParser(bytes: raw)
            guard let node = parser.value(), parser.atEnd() else { return nil }
            return node
        }
    }
}

extension DocumentNode {
    /// The node of a composed YAML document, or `nil` where `YAMLDecoder` does more than read the tree as it is
    /// (an alias, a `<<` merge, an anchor or explicit tag on a mapping, a key that is not a scalar, a repeated key):
    /// `nil` sends the caller to `YAMLDecoder`.
    convenience init?(yaml node: Node) {
        switch node {
        case .scalar(let scalar):
            self.init(.yaml(scalar))
        case .sequence(let sequence):
            var elements: [DocumentNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence {
                guard let converted = DocumentNode(yaml: element) else { return nil }
                elements.append(converted)
            }
            self.init(.array(elements))
        case .mapping(let mapping):
            guard mapping.anchor == nil, mapping.tag.rawValue == Tag.Name.implicit.rawValue else { return nil }
            var keys: [String] = []
            var members: [String: DocumentNode] = [:]
            for (key, value) in mapping {
                guard case .scalar(let name) = key, name.string != "<<", members[name.string] == nil,
                      let converted = DocumentNode(yaml: value) else { return nil }
                keys.append(name.string)
                members[name.string] = converted
            }
            self.init(.object(keys: keys, members: members))
        case .alias:
            return nil
        }
    }
}

/// The strict JSON grammar (RFC 8259) over UTF-8 bytes; any deviation gives `nil`. Nesting was bounded before
/// (`JSONNesting`), so recursion is safe.
private struct DocumentJSONParser {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    private static let digits = UInt8(ascii: "0")...UInt8(ascii: "9")

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    mutating func atEnd() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    mutating func value() -> DocumentNode? {
        skipWhitespace()
        guard let byte = peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map { DocumentNode(.string($0)) }
        case UInt8(ascii: "t"): return literal("true") ? DocumentNode(.bool(true)) : nil
        case UInt8(ascii: "f"): return literal("false") ? DocumentNode(.bool(false)) : nil
        case UInt8(ascii: "n"): return literal("null") ? DocumentNode(.null) : nil
        case UInt8(ascii: "-"), Self.digits: return number().map { DocumentNode(.number($0)) }
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0 else { return false }
        position += count
        return true
    }

    private mutating func object() -> DocumentNode? {
        position += 1
        var keys: [String] = []
        var members: [String: DocumentNode] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return DocumentNode(.object(keys: keys, members: members))
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value() else { return nil }
            if members[key] == nil {
                keys.append(key)
                members[key] = member
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return DocumentNode(.object(keys: keys, members: members))
            default: return nil
            }
        }
    }

    private mutating func array() -> DocumentNode? {
        position += 1
        var elements: [DocumentNode] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return DocumentNode(.array(elements))
        }
        while true {
            guard let element = value() else { return nil }
            elements.append(element)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return DocumentNode(.array(elements))
            default: return nil
            }
        }
    }

    /// A string at its opening quote, escapes decoded, validated as UTF-8.
    private mutating func string() -> String? {
        position += 1
        let start = position
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            position += 1
        }
        guard let stop = peek() else { return nil }
        if stop == UInt8(ascii: "\"") {
            defer { position += 1 }
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }
        var decoded = Array(bytes[start..<position])
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(validating: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count, (try? JSONStringEscape.decode(bytes, at: &position, into: &decoded)) != nil else { return nil }
            case 0..<0x20:
                return nil
            default:
                decoded.append(byte)
                position += 1
            }
        }
        return nil
    }

    /// A number in JSON's grammar, as spelled: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() -> String? {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), Self.digits.contains(first) else { return nil }
        position += 1
        if first == UInt8(ascii: "0") {
            if let next = peek(), Self.digits.contains(next) { return nil }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard requireDigits() else { return nil }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard requireDigits() else { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.digits.contains(byte) { position += 1 }
    }

    private mutating func requireDigits() -> Bool {
        guard let byte = peek(), Self.digits.contains(byte) else { return false }
        skipDigits()
        return true
    }
}
