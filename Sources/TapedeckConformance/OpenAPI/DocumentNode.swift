import Foundation
import OpenAPIKit
import TapedeckCassette
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
    /// `nil` sends the caller to `JSONDecoder`, whose verdict and messages stay the reference. The text is read by
    /// the cassette's strict JSON reader (RFC 8259, member order and number spelling kept), the one JSON parser that
    /// keeps both.
    static func parse(json bytes: some Collection<UInt8>) -> DocumentNode? {
        guard let value = try? CassetteJSON.parse(Data(bytes)) else { return nil }
        return DocumentNode(json: value)
    }

    /// The node of a parsed JSON value; of an object's repeated member, the first value counts, as `JSONDecoder`'s.
    convenience init(json value: CassetteJSON) {
        switch value {
        case .null: self.init(.null)
        case .bool(let flag): self.init(.bool(flag))
        case .number(let spelling): self.init(.number(spelling))
        case .string(let text): self.init(.string(text))
        case .array(let elements): self.init(.array(elements.map { DocumentNode(json: $0) }))
        case .object(let members):
            var keys: [String] = []
            var nodes: [String: DocumentNode] = [:]
            for member in members where nodes[member.key] == nil {
                keys.append(member.key)
                nodes[member.key] = DocumentNode(json: member.value)
            }
            self.init(.object(keys: keys, members: nodes))
        }
    }
}

extension DocumentNode {
    /// The node of a composed YAML document, or `nil` where `YAMLDecoder` does more than read the tree as it is
    /// (an alias, a `<<` merge, an anchor or explicit tag on a mapping, a key that is not a scalar, a repeated key):
    /// `nil` sends the caller to `YAMLDecoder`.
    ///
    /// A node that aliases repeat becomes one node wherever they repeat it, so that what it decodes to is worked out
    /// once: decoding then costs what the document's text holds, not what its aliases expand to (a 417-byte document
    /// whose aliases stand for 77,000 scalars took a second to decode). Yams composes an alias as a copy of its
    /// anchor's node, mark included (and keeps no anchor name), so a node met again at a place already converted is
    /// that node repeated: no two nodes of one kind start at one place, and a mapping's keys, which may start where
    /// the mapping does, are not nodes here.
    convenience init?(yaml node: Node) {
        var converted: [Place: DocumentNode] = [:]
        guard let content = Self.content(of: node, converted: &converted) else { return nil }
        self.init(content)
    }

    /// Where a node of the text starts, and its kind.
    private struct Place: Hashable {
        let line: Int
        let column: Int
        let kind: Int
    }

    private static func node(of yaml: Node, converted: inout [Place: DocumentNode]) -> DocumentNode? {
        guard let mark = yaml.mark else { return content(of: yaml, converted: &converted).map(DocumentNode.init) }
        let kind = switch yaml {
        case .scalar: 0
        case .sequence: 1
        case .mapping: 2
        case .alias: 3
        }
        let place = Place(line: mark.line, column: mark.column, kind: kind)
        if let known = converted[place] { return known }
        guard let node = content(of: yaml, converted: &converted).map(DocumentNode.init) else { return nil }
        converted[place] = node
        return node
    }

    private static func content(of yaml: Node, converted: inout [Place: DocumentNode]) -> Content? {
        switch yaml {
        case .scalar(let scalar):
            return .yaml(scalar)
        case .sequence(let sequence):
            var elements: [DocumentNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence {
                guard let member = node(of: element, converted: &converted) else { return nil }
                elements.append(member)
            }
            return .array(elements)
        case .mapping(let mapping):
            guard mapping.anchor == nil, mapping.tag.rawValue == Tag.Name.implicit.rawValue else { return nil }
            var keys: [String] = []
            var members: [String: DocumentNode] = [:]
            for (key, value) in mapping {
                guard case .scalar(let name) = key, name.string != "<<", members[name.string] == nil,
                      let member = node(of: value, converted: &converted) else { return nil }
                keys.append(name.string)
                members[name.string] = member
            }
            return .object(keys: keys, members: members)
        case .alias:
            return nil
        }
    }
}
