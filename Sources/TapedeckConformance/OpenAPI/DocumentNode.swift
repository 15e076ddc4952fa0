import Foundation
import OpenAPIKit
import TapedeckCassette
import TapedeckCore
import TapedeckYAML
import Yams

/// A JSON document parsed once into a tree that ``DocumentDecoder`` decodes OpenAPIKit's types from: objects keep
/// their members' order, numbers keep their spelling (so an integer is read exactly, as `JSONDecoder` reads it), and
/// each node remembers what it decoded to as `AnyCodable`.
///
/// That last part is the point. OpenAPIKit reads every object's vendor extensions by decoding the whole object as
/// `AnyCodable` (a dictionary of everything below it), so with `JSONDecoder` each value is decoded again for each
/// object above it, and each `AnyCodable` probes Bool, Int, UInt, Double and String by throwing errors. Here each
/// node's value is worked out once, without probes.
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
    /// The value `AnyCodable` holds for this node (a `String`, `Int`, `[String: any Sendable]`, …), once asked for.
    /// Two threads may ask (``DecodedAhead``), so it is read and written under ``plainValueLock``.
    var plainValue: (any Sendable)?
    /// This node decoded on another thread, for the decoder that reaches it; set and cleared by the thread that
    /// decodes the document.
    var ahead: DecodedAhead?

    /// Guards every node's ``plainValue``: one lock for all, held only to read or write one.
    static let plainValueLock = NSLock()

    init(_ content: Content) {
        self.content = content
    }

    /// The node of a JSON value as the cassette's strict reader parsed it (RFC 8259, member order and number spelling
    /// kept: the one JSON parser that keeps both); of an object's repeated member, the first value counts, as
    /// `JSONDecoder`'s.
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
    /// The node of a composed YAML document, read as `YAMLDecoder` reads it, with `<<` merges (``YAMLMerge``). What
    /// OpenAPI leaves out of its YAML is refused at its line and column: a key that is not a string, and a tag other
    /// than the JSON schema's (`!!str`, `!!int`, `!!map`, …), as OpenAPI 3.1 §4.3 requires. (`YAMLDecoder` read a tag
    /// on a mapping as a member named after the tag, which OpenAPIKit's error handling does not expect: the fuzz
    /// target found a trap there.)
    ///
    /// A node that aliases repeat becomes one node wherever they repeat it, so that what it decodes to is worked out
    /// once: decoding then costs what the document's text holds, not what its aliases expand to (a 417-byte document
    /// whose aliases stand for 77,000 scalars took a second to decode). Yams composes an alias as a copy of its
    /// anchor's node, mark included (and keeps no anchor name), so a node met again at a place already converted is
    /// that node repeated: no two nodes of one kind start at one place, and a mapping's keys, which may start where
    /// the mapping does, are not nodes here.
    convenience init(yaml node: Node) throws(YAMLDocumentError) {
        var converted: [Place: DocumentNode] = [:]
        try self.init(Self.content(of: node, converted: &converted))
    }

    /// Where a node of the text starts, and its kind.
    private struct Place: Hashable {
        let line: Int
        let column: Int
        let kind: Int
    }

    private static func node(of yaml: Node, converted: inout [Place: DocumentNode]) throws(YAMLDocumentError) -> DocumentNode {
        guard let mark = yaml.mark else { return DocumentNode(try content(of: yaml, converted: &converted)) }
        let kind = switch yaml {
        case .scalar: 0
        case .sequence: 1
        case .mapping: 2
        case .alias: 3
        }
        let place = Place(line: mark.line, column: mark.column, kind: kind)
        if let known = converted[place] { return known }
        let node = DocumentNode(try content(of: yaml, converted: &converted))
        converted[place] = node
        return node
    }

    private static func content(of yaml: Node, converted: inout [Place: DocumentNode]) throws(YAMLDocumentError) -> Content {
        try refuseTag(of: yaml)
        switch yaml {
        case .scalar(let scalar):
            return .yaml(scalar)
        case .sequence(let sequence):
            var elements: [DocumentNode] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try node(of: element, converted: &converted)) }
            return .array(elements)
        case .mapping(let mapping):
            var keys: [String] = []
            var members: [String: DocumentNode] = [:]
            for (key, value) in try YAMLMerge.merged(mapping) {
                try refuseTag(of: key)
                guard case .scalar(let name) = key else {
                    throw refusal(at: key, "a mapping key must be a string (OpenAPI's YAML allows no other keys)")
                }
                // Yams' composer refuses a repeated key, but not one spelled alike with another tag: the later wins.
                if members.updateValue(try node(of: value, converted: &converted), forKey: name.string) == nil { keys.append(name.string) }
            }
            return .object(keys: keys, members: members)
        case .alias:
            // Yams composes an alias as a copy of its anchor's node; this case is for the nodes its emitter writes.
            throw refusal(at: yaml, "an alias that was not resolved")
        }
    }

    /// The tags OpenAPI's YAML may use: none, `!`, the JSON schema's, and the merge key's.
    private static let allowedTags: Set<String> = [
        Tag.Name.implicit, .nonSpecific, .null, .bool, .int, .float, .str, .seq, .map, .merge,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// Refuses a tag OpenAPI does not allow. The tag is read as the text gave it: `Node.tag` would resolve an implicit
    /// tag in place (Yams' tags are shared objects), and the scalar would then read as a string only.
    private static func refuseTag(of yaml: Node) throws(YAMLDocumentError) {
        let tag = switch yaml {
        case .scalar(let scalar): scalar.tag.rawValue
        case .sequence(let sequence): sequence.tag.rawValue
        case .mapping(let mapping): mapping.tag.rawValue
        case .alias: Tag.Name.implicit.rawValue
        }
        guard !tag.isEmpty, !allowedTags.contains(tag) else { return }   // most nodes have no tag
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
        throw refusal(at: yaml, "the tag \(Shown.truncated(shown, limit: 60)) is not one OpenAPI allows (only the JSON "
                      + "schema's: !!str, !!int, !!float, !!bool, !!null, !!seq, !!map)")
    }

    private static func refusal(at yaml: Node, _ message: String) -> YAMLDocumentError {
        YAMLDocumentError(line: yaml.mark?.line, column: yaml.mark?.column, message: message)
    }
}
