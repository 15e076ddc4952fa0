import Yams

/// YAML read within limits: the one way Tapedeck's YAML readers (VCR cassettes, OpenAPI documents) compose a
/// document, so that hostile input costs bounded time and memory and every refusal names its line and column.
///
/// - ``Limits/maximumBytes``: the document's size.
/// - ``Limits/maximumDepth``: how deep mappings and sequences nest (libyaml's own limit is 1000).
/// - ``Limits/maximumNodes``: an expansion budget. An alias (`*name`) stands for its anchor's whole subtree, so a
///   few lines of anchors that each repeat the last ten times ("a billion laughs") stand for 10⁹ nodes, and a reader
///   that walks them takes ten times longer per level. The document is counted with every alias expanded, from
///   libyaml's events before anything is composed (``YAMLEventBudget``), or as it is composed straight from them into
///   a reader's own tree (``compose(_:into:limits:)``), and counting stops at the budget, which no document without
///   aliases reaches: it is at least the document's size in bytes, and every node takes a byte.
///
/// ```swift
/// let root = try YAMLDocument.compose(text)   // a Yams Node, or throws YAMLDocumentError with line and column
/// ```
package enum YAMLDocument {
    /// Limits on one document.
    package struct Limits: Sendable {
        /// The most bytes (UTF-8) a document may have.
        package var maximumBytes: Int
        /// The deepest mappings and sequences may nest.
        package var maximumDepth: Int
        /// The most nodes the document may stand for with its aliases expanded, when that is more than its size.
        package var maximumNodes: Int

        package init(maximumBytes: Int = 256 << 20, maximumDepth: Int = 256, maximumNodes: Int = 1_000_000) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
            self.maximumNodes = maximumNodes
        }

        /// 256 MiB, 256 levels, 1,000,000 nodes (or the size in bytes, if more).
        package static let standard = Limits()
    }

    /// The first document of `text` composed with `resolver` (the default: scalars keep their text, `<<` merges, as
    /// `YAMLDecoder` composes), checked against `limits`; `nil` for an empty stream.
    ///
    /// - Throws: ``YAMLDocumentError`` with the line and column of the syntax error or of the node where a limit ran
    ///   out, and the limit.
    package static func compose(_ text: String, resolver: Resolver = Resolver.basic.appending(.merge),
                                limits: Limits = .standard) throws(YAMLDocumentError) -> Node? {
        let size = text.utf8.count
        guard size <= limits.maximumBytes else {
            throw YAMLDocumentError(line: nil, column: nil,
                                    message: "the document has \(size) bytes, more than the \(limits.maximumBytes) a YAML document may have")
        }
        try YAMLEventBudget.check(text, budget: max(limits.maximumNodes, size), maximumDepth: limits.maximumDepth)
        do { return try Yams.compose(yaml: text, resolver) } catch {
            throw YAMLDocumentError(error)
        }
    }
}

/// YAML that is not well formed or goes past a ``YAMLDocument/Limits``: where (1-based line and column, when known)
/// and what.
package struct YAMLDocumentError: Error, Sendable, CustomStringConvertible {
    package var line: Int?
    package var column: Int?
    package var message: String

    package init(line: Int?, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// Yams' error in words, with its place: libyaml's problem and context, not "(Yams.YamlError error 0.)".
    init(_ error: any Error) {
        guard let yaml = error as? YamlError else {
            self.init(line: nil, column: nil, message: "not valid YAML: \(error)")
            return
        }
        switch yaml {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            self.init(line: mark.line, column: mark.column, message: "not valid YAML: \(problem)\(while_)")
        case .reader(let problem, let offset, _, let text):
            let place = offset.flatMap { Self.lineAndColumn(ofCharacter: $0, in: text) }
            self.init(line: place?.line, column: place?.column, message: "not valid YAML: \(problem)")
        default:
            self.init(line: nil, column: nil, message: "not valid YAML: \(yaml)")
        }
    }

    /// The 1-based line and column (in Unicode scalars, as Yams counts its marks) of the character at `offset`
    /// (a count of characters from the start, as Yams reports a reader error), or `nil` past the end.
    static func lineAndColumn(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int)? {
        guard offset >= 0, let target = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else { return nil }
        var line = 1
        var lineStart = text.startIndex
        var index = text.startIndex
        while index < target {
            if text[index].isNewline { line += 1; lineStart = text.index(after: index) }
            index = text.index(after: index)
        }
        return (line, text.unicodeScalars[lineStart..<target].count + 1)
    }

    /// `12:5: message`, or the message alone when the place is not known.
    package var description: String {
        guard let line else { return message }
        return "\(line):\(column ?? 1): \(message)"
    }
}

extension YAMLDocument {
    /// `bytes` as text: UTF-8, with a leading byte order mark (which YAML allows) left out.
    ///
    /// - Throws: ``YAMLDocumentError`` with the line and column of the first byte that is not UTF-8.
    package static func text(_ bytes: some Collection<UInt8>) throws(YAMLDocumentError) -> String {
        var body = Array(bytes)[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        return try UTF8Position.text(body, rule: "YAML files must be UTF-8 here")
    }
}

/// Where the first byte that is not UTF-8 is, as a 1-based line and column (in characters).
package enum UTF8Position {
    /// `bytes` as text, or a refusal at the line and column of the first byte that is not UTF-8, saying `rule`
    /// (`"JSON must be UTF-8"`).
    package static func text(_ bytes: some Collection<UInt8>, rule: String) throws(YAMLDocumentError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let (line, column) = ofFirstInvalidByte(in: Array(bytes))
        throw YAMLDocumentError(line: line, column: column, message: "not UTF-8 text (\(rule))")
    }

    private static func ofFirstInvalidByte(in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput, .error:
                return (line, column)
            }
        }
    }
}
