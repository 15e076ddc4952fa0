internal import CYaml
import Yams

/// Where a node starts: 1-based line and column (in Unicode scalars), as Yams reports its marks.
package struct YAMLMark: Sendable, Equatable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// What ``YAMLDocument/compose(_:into:limits:)`` builds a document into, node by node, children before their
/// collection. A tag is the text's own (`""` when none was written; a quoted scalar's is `!!str`'s, as Yams gives it).
/// An alias is the node its anchor built, handed out again (through ``alias(_:at:)``, which may note the alias's place).
package protocol YAMLTreeBuilder {
    associatedtype Node

    mutating func scalar(_ text: String, tag: String, style: Yams.Node.Scalar.Style, at mark: YAMLMark) throws(YAMLDocumentError) -> Node
    mutating func sequence(_ elements: ArraySlice<Node>, tag: String, at mark: YAMLMark) throws(YAMLDocumentError) -> Node
    /// A mapping of `keysAndValues.count / 2` pairs: each key followed by its value.
    mutating func mapping(_ keysAndValues: ArraySlice<Node>, tag: String, at mark: YAMLMark) throws(YAMLDocumentError) -> Node
    /// The node an alias at `mark` stands for: `node`, the one its anchor built.
    mutating func alias(_ node: Node, at mark: YAMLMark) -> Node
}

extension YAMLTreeBuilder {
    package func alias(_ node: Node, at mark: YAMLMark) -> Node { node }
}

extension YAMLDocument {
    /// The one document of `text` built by `builder` straight from libyaml's events, in one pass that keeps `limits`
    /// as ``compose(_:resolver:limits:)`` does (the alias budget counted as the nodes come); `nil` for an empty stream.
    /// Errors read as that function's do: libyaml's problem and context at their line and column, an undefined
    /// alias, a second document; and the builder's own refusals, at the first node refused.
    ///
    /// ```swift
    /// var builder = MyTreeBuilder()
    /// let root = try YAMLDocument.compose(text, into: &builder)
    /// ```
    package static func compose<Builder: YAMLTreeBuilder>(
        _ text: String, into builder: inout Builder, limits: Limits = .standard
    ) throws(YAMLDocumentError) -> Builder.Node? {
        let size = text.utf8.count
        guard size <= limits.maximumBytes else {
            throw YAMLDocumentError(line: nil, column: nil,
                                    message: "the document has \(size) bytes, more than the \(limits.maximumBytes) a YAML document may have")
        }
        var text = text
        let composed = text.withUTF8 { bytes in
            var composer = YAMLTreeComposer(builder: builder, text: bytes,
                                            tally: .init(budget: max(limits.maximumNodes, size), maximumDepth: limits.maximumDepth))
            defer { builder = composer.builder }
            return composer.run()
        }
        return try composed.get()
    }
}

/// The event loop of ``YAMLDocument/compose(_:into:limits:)``. Finished nodes wait on one stack until the collection
/// they belong to ends and takes them (its elements, or its keys and values in turn).
private struct YAMLTreeComposer<Builder: YAMLTreeBuilder> {
    var builder: Builder
    let text: UnsafeBufferPointer<UInt8>
    var tally: YAMLEventBudget.Tally

    /// An open collection: its kind, tag, place and anchor, and where its nodes start on `finished`.
    private struct Open {
        let isMapping: Bool
        let tag: String
        let mark: YAMLMark
        let anchor: String?
        let start: Int
    }

    private var open: [Open] = []
    private var finished: [Builder.Node] = []
    private var anchors: [String: Builder.Node] = [:]
    private var root: Builder.Node?
    private var documents = 0

    init(builder: Builder, text: UnsafeBufferPointer<UInt8>, tally: YAMLEventBudget.Tally) {
        self.builder = builder
        self.text = text
        self.tally = tally
    }

    mutating func run() -> Result<Builder.Node?, YAMLDocumentError> {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return .failure(YAMLDocumentError(line: nil, column: nil, message: "not valid YAML: out of memory"))
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, text.baseAddress, text.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { return .failure(syntaxError(parser)) }
            defer { yaml_event_delete(&event) }
            do throws(YAMLDocumentError) {
                if event.type == YAML_STREAM_END_EVENT { return .success(root) }
                if let problem = tally.take(event) { throw problem }
                try take(event)
            } catch {
                return .failure(error)
            }
        }
    }

    private mutating func take(_ event: yaml_event_t) throws(YAMLDocumentError) {
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            guard documents == 1 else {
                throw YAMLDocumentError(line: mark.line, column: mark.column, message: "not valid YAML: but found another "
                                        + "document (expected a single document in the stream at 1:1)")
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            // As Yams: a quoted scalar without a tag is a string.
            let tag = scalar.quoted_implicit == 1 ? Tag.Name.str.rawValue : Self.string(scalar.tag) ?? ""
            let style = Yams.Node.Scalar.Style(rawValue: scalar.style.rawValue) ?? .any
            try add(try builder.scalar(value, tag: tag, style: style, at: mark), anchor: Self.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            guard let name = Self.string(event.data.alias.anchor), let node = anchors[name] else {
                throw YAMLDocumentError(line: mark.line, column: mark.column, message: "not valid YAML: found undefined alias")
            }
            try add(builder.alias(node, at: mark), anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            open.append(Open(isMapping: false, tag: start.implicit != 0 ? "" : Self.string(start.tag) ?? "", mark: mark,
                             anchor: Self.string(start.anchor), start: finished.count))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            open.append(Open(isMapping: true, tag: start.implicit != 0 ? "" : Self.string(start.tag) ?? "", mark: mark,
                             anchor: Self.string(start.anchor), start: finished.count))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = open.popLast() else { return }
            let contents = finished[collection.start...]
            let node = collection.isMapping
                ? try builder.mapping(contents, tag: collection.tag, at: collection.mark)
                : try builder.sequence(contents, tag: collection.tag, at: collection.mark)
            finished.removeSubrange(collection.start...)
            try add(node, anchor: collection.anchor)
        default:
            break
        }
    }

    /// Puts a finished node where it goes, under its anchor too (a later anchor of the same name takes over, as
    /// YAML says).
    private mutating func add(_ node: Builder.Node, anchor: String?) throws(YAMLDocumentError) {
        if let anchor { anchors[anchor] = node }
        if open.isEmpty { root = node } else { finished.append(node) }
    }

    /// libyaml's error as Yams words it: the problem, with its context when there is one, at the problem's place.
    private func syntaxError(_ parser: yaml_parser_t) -> YAMLDocumentError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return YAMLDocumentError(line: nil, column: nil, message: "not valid YAML: out of memory")
        case YAML_READER_ERROR:
            // Placed by the character at the byte where reading stopped, as Yams places it.
            let textString = String(decoding: text, as: UTF8.self)
            let index = textString.utf8.index(textString.utf8.startIndex, offsetBy: parser.problem_offset,
                                              limitedBy: textString.utf8.endIndex)?.samePosition(in: textString)
            let place = index.flatMap {
                YAMLDocumentError.lineAndColumn(ofCharacter: textString.distance(from: textString.startIndex, to: $0), in: textString)
            }
            return YAMLDocumentError(line: place?.line, column: place?.column, message: "not valid YAML: \(problem)")
        default:
            let context = parser.context.map {
                " (\(String(cString: $0)) at \(parser.context_mark.line + 1):\(parser.context_mark.column + 1))"
            } ?? ""
            return YAMLDocumentError(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1,
                                     message: "not valid YAML: \(problem)\(context)")
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
