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
    /// The tree of a YAML document's text, composed straight from libyaml's events within `limits`
    /// (``YAMLDocument``'s: size, nesting, the alias budget) and read as `YAMLDecoder` reads it, with `<<` merges
    /// (``YAMLMerge``). What OpenAPI leaves out of its YAML is refused at its line and column: a key that is not a
    /// string, a key repeated in one mapping, and a tag other than the JSON schema's (`!!str`, `!!int`, `!!map`, …), as
    /// OpenAPI 3.1 §4.3 requires. (`YAMLDecoder` read a tag on a mapping as a member named after the tag, which
    /// OpenAPIKit's error handling does not expect: the fuzz target found a trap there.) An empty stream is an empty
    /// string.
    ///
    /// A node that aliases repeat is one node wherever they repeat it, so that what it decodes to is worked out once:
    /// decoding then costs what the document's text holds, not what its aliases expand to (a 417-byte document whose
    /// aliases stand for 77,000 scalars took a second to decode).
    ///
    /// ```swift
    /// let tree = try DocumentNode.yaml("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}")
    /// ```
    static func yaml(_ text: String, limits: YAMLDocument.Limits = .standard) throws(YAMLDocumentError) -> DocumentNode {
        var builder = DocumentTreeBuilder()
        return try YAMLDocument.compose(text, into: &builder, limits: limits)?.node ?? DocumentNode(.yaml(Node.Scalar("")))
    }
}

/// Builds ``DocumentNode``s from a YAML document's nodes (``YAMLDocument/compose(_:into:limits:)``), keeping each
/// node's place and, for a scalar, what a mapping key needs.
struct DocumentTreeBuilder: YAMLTreeBuilder {
    struct Built {
        let node: DocumentNode
        let mark: YAMLMark

        /// The scalar this is, as written: its text, style and tag (`""` when none was written).
        var scalar: (text: String, style: Yams.Node.Scalar.Style, tag: String)? {
            guard case .yaml(let scalar) = node.content else { return nil }
            return (scalar.string, scalar.style, scalar.tag.rawValue)
        }
    }

    /// Yams' default constructor, made once a document (`Constructor.default` makes a new one, with its tables, each
    /// time it is asked for).
    private let constructor = Constructor.default

    func scalar(_ text: String, tag: String, style: Yams.Node.Scalar.Style, at mark: YAMLMark) throws(YAMLDocumentError) -> Built {
        try Self.refuse(tag: tag, at: mark)
        // As Yams composes a scalar (its tag with the basic resolver, which leaves every scalar's text a string), so
        // that Yams' `ScalarConstructible` reads it as `YAMLDecoder` does.
        return Built(node: DocumentNode(.yaml(Yams.Node.Scalar(text, Tag(Tag.Name(rawValue: tag), .basic, constructor), style))), mark: mark)
    }

    /// The anchored node itself (one node for every repeat), placed at the alias for the errors that name it.
    func alias(_ node: Built, at mark: YAMLMark) -> Built {
        Built(node: node.node, mark: mark)
    }

    func sequence(_ elements: ArraySlice<Built>, tag: String, at mark: YAMLMark) throws(YAMLDocumentError) -> Built {
        try Self.refuse(tag: tag, at: mark)
        return Built(node: DocumentNode(.array(elements.map(\.node))), mark: mark)
    }

    func mapping(_ keysAndValues: ArraySlice<Built>, tag: String, at mark: YAMLMark) throws(YAMLDocumentError) -> Built {
        try Self.refuse(tag: tag, at: mark)
        let pairs = stride(from: keysAndValues.startIndex, to: keysAndValues.endIndex - 1, by: 2).map {
            (key: keysAndValues[$0], value: keysAndValues[$0 + 1])
        }
        try Self.refuseRepeatedKeys(pairs)
        let hasMerge = pairs.contains { pair in pair.key.scalar.map { YAMLMerge.isMergeKey($0.text, style: $0.style, tag: $0.tag) } ?? false }
        var keys: [String] = []
        keys.reserveCapacity(pairs.count)
        var members = [String: DocumentNode](minimumCapacity: pairs.count)
        for (key, value) in hasMerge ? try Self.merged(pairs) : pairs.map({ ($0.key.scalar?.text, $0) }) {
            guard let key else {
                throw YAMLDocumentError(line: value.key.mark.line, column: value.key.mark.column,
                                        message: "a mapping key must be a string (OpenAPI's YAML allows no other keys)")
            }
            // A key spelled alike with another tag is not a repeat to Yams: the later wins.
            if members.updateValue(value.value.node, forKey: key) == nil { keys.append(key) }
        }
        return Built(node: DocumentNode(.object(keys: keys, members: members)), mark: mark)
    }

    /// A mapping's pairs with its `<<`s taken in (``YAMLMerge/combined(merged:own:name:)``), each with its key's
    /// text (`nil` for a key that is not a scalar).
    private static func merged(
        _ pairs: [(key: Built, value: Built)]
    ) throws(YAMLDocumentError) -> [(String?, (key: Built, value: Built))] {
        var merged: [(key: String?, value: (key: Built, value: Built))] = []
        var own: [(key: String?, value: (key: Built, value: Built))] = []
        for pair in pairs {
            let scalar = pair.key.scalar
            guard let key = scalar, YAMLMerge.isMergeKey(key.text, style: key.style, tag: key.tag) else {
                own.append((scalar?.text, pair))
                continue
            }
            let sources: [DocumentNode]
            switch pair.value.node.content {
            case .object: sources = [pair.value.node]
            case .array(let list) where list.allSatisfy({ if case .object = $0.content { true } else { false } }): sources = list
            default:
                throw YAMLDocumentError(line: pair.value.mark.line, column: pair.value.mark.column,
                                        message: "a << merge takes a mapping or a list of mappings")
            }
            for case .object(let keys, let members) in sources.map(\.content) {
                merged += keys.map { name in (name, (pair.key, Built(node: members[name]!, mark: pair.value.mark))) }
            }
        }
        return YAMLMerge.combined(merged: merged, own: own, name: { $0.key }).map { ($0.key, $0.value) }
    }

    /// Refuses a key that a mapping has twice: the same text with the same tag (the merge key is a merge; another key
    /// without a tag, or with `!`, is a string), as Yams' composer refuses it.
    private static func refuseRepeatedKeys(_ pairs: [(key: Built, value: Built)]) throws(YAMLDocumentError) {
        var first = [String: Int](minimumCapacity: pairs.count)
        for (index, pair) in pairs.enumerated() {
            guard let scalar = pair.key.scalar else { continue }
            guard let earlier = first[scalar.text] else {
                first[scalar.text] = index
                continue
            }
            // Text seen before (rare): a repeat when a key of that text has the same tag.
            let tag = resolvedTag(of: scalar)
            for candidate in pairs[earlier..<index] {
                guard let other = candidate.key.scalar, other.text == scalar.text, resolvedTag(of: other) == tag else { continue }
                throw YAMLDocumentError(line: pair.key.mark.line, column: pair.key.mark.column,
                                        message: "not valid YAML: the key '\(Shown.truncated(scalar.text, limit: 60))' is repeated "
                                        + "in one mapping (first at \(candidate.key.mark.line):\(candidate.key.mark.column))")
            }
        }
    }

    /// A key's tag as Yams compares keys: the merge key's, a string's for none or `!`, or the one written.
    private static func resolvedTag(of scalar: (text: String, style: Yams.Node.Scalar.Style, tag: String)) -> String {
        if YAMLMerge.isMergeKey(scalar.text, style: scalar.style, tag: scalar.tag) { return Tag.Name.merge.rawValue }
        return scalar.tag.isEmpty || scalar.tag == Tag.Name.nonSpecific.rawValue ? Tag.Name.str.rawValue : scalar.tag
    }

    /// The tags OpenAPI's YAML may use: none, `!`, the JSON schema's, and the merge key's.
    private static let allowedTags: Set<String> = [
        Tag.Name.implicit, .nonSpecific, .null, .bool, .int, .float, .str, .seq, .map, .merge,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// Refuses a tag OpenAPI does not allow.
    private static func refuse(tag: String, at mark: YAMLMark) throws(YAMLDocumentError) {
        guard !tag.isEmpty, !allowedTags.contains(tag) else { return }   // most nodes have no tag
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
        throw YAMLDocumentError(line: mark.line, column: mark.column,
                                message: "the tag \(Shown.truncated(shown, limit: 60)) is not one OpenAPI allows (only the JSON "
                                + "schema's: !!str, !!int, !!float, !!bool, !!null, !!seq, !!map)")
    }
}
