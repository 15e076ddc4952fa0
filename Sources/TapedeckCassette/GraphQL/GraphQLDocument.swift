/// A GraphQL document as a request carries it: its normalized text and the operations it defines.
///
/// Normalizing keeps every token and drops what the lexical grammar ignores (white space, line breaks, commas,
/// comments), leaving a space only between two tokens that would otherwise run together; block strings are
/// rewritten in their shortest spelling. It is the text graphql-js's `stripIgnoredCharacters` produces, so two
/// documents that differ only in layout normalize to the same text.
///
/// ```swift
/// let document = try GraphQLDocument("query Hero($id: ID!) {\n  hero(id: $id) { name, friends { name } }\n}")
/// document.normalized    // "query Hero($id:ID!){hero(id:$id){name friends{name}}}"
/// document.operations    // [.init(kind: .query, name: "Hero")]
/// ```
public struct GraphQLDocument: Sendable, Hashable {
    /// One operation definition: its kind and its name (`nil` when anonymous).
    public struct Operation: Sendable, Hashable {
        /// `query`, `mutation` or `subscription`.
        public var kind: GraphQLOperationKind
        /// The operation's name, or `nil` for an anonymous operation.
        public var name: String?

        /// Creates an operation description.
        public init(kind: GraphQLOperationKind, name: String?) {
            self.kind = kind
            self.name = name
        }
    }

    /// The document without ignored characters.
    public let normalized: String
    /// The operation definitions, in document order (fragments are not operations).
    public let operations: [Operation]

    /// Reads `text`, or throws at its first lexical error.
    public init(_ text: String) throws(GraphQLSyntaxError) {
        let lexer = try GraphQLLexer(text)
        normalized = Self.normalize(lexer)
        operations = Self.operations(lexer)
    }

    /// Whether `text` starts like an executable GraphQL document (`{`, `query`, `mutation`, `subscription` or
    /// `fragment` after anything ignored), which tells a GraphQL `query` parameter from a search box's.
    public static func looksLikeDocument(_ text: String) -> Bool {
        var rest = Substring(text)
        while let first = rest.unicodeScalars.first {
            if first == "#" {
                rest = rest.drop { $0 != "\n" && $0 != "\r" }
            } else if first == " " || first == "\t" || first == "," || first == "\n" || first == "\r" || first == "\u{FEFF}" {
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        if rest.hasPrefix("{") { return true }
        let word = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return word == "query" || word == "mutation" || word == "subscription" || word == "fragment"
    }

    /// The operation a request selects with `operationName`: the one of that name, or the only one when no name
    /// is given. `nil` when there is no such operation.
    public func operation(named name: String?) -> Operation? {
        guard let name else { return operations.count == 1 ? operations[0] : nil }
        return operations.first { $0.name == name }
    }

    private static func normalize(_ lexer: GraphQLLexer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(lexer.bytes.count)
        var previousIsWord = false
        for token in lexer.tokens {
            let isWord = token.kind != .punctuator && token.kind != .spread
            // Two words (names, numbers, strings) need a space between them, and so does a word before a spread
            // (`1...` would read as a malformed number).
            if previousIsWord, isWord || token.kind == .spread { output.append(UInt8(ascii: " ")) }
            if let value = token.blockValue {
                output += GraphQLBlockString.minimized(value).utf8
            } else {
                output += lexer.bytes[token.range]
            }
            previousIsWord = isWord
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The operation definitions: at the top level (outside braces and parentheses), a `{` not opened by a
    /// definition's keyword is an anonymous query, and `query`, `mutation` or `subscription` starts an operation named by the name after it, if any.
    private static func operations(_ lexer: GraphQLLexer) -> [Operation] {
        var operations: [Operation] = []
        var depth = 0
        // Braces inside parentheses are object values (a variable's default, a directive's argument).
        var parentheses = 0
        var awaitingBody = false
        let tokens = lexer.tokens
        for (index, token) in tokens.enumerated() {
            let first = lexer.bytes[token.range.lowerBound]
            switch token.kind {
            case .punctuator where first == UInt8(ascii: "("): parentheses += 1
            case .punctuator where first == UInt8(ascii: ")"): parentheses = max(0, parentheses - 1)
            case .punctuator where first == UInt8(ascii: "{"):
                if depth == 0, parentheses == 0 {
                    if !awaitingBody { operations.append(Operation(kind: .query, name: nil)) }
                    awaitingBody = false
                }
                depth += 1
            case .punctuator where first == UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            case .name where depth == 0 && parentheses == 0 && !awaitingBody:
                // Only a definition's first word gets here: an operation's kind, `fragment`, or another keyword.
                awaitingBody = true
                if let kind = GraphQLOperationKind(rawValue: String(lexer.text(of: token))) {
                    let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                    let name = next.flatMap { $0.kind == .name ? String(lexer.text(of: $0)) : nil }
                    operations.append(Operation(kind: kind, name: name))
                }
            default:
                break
            }
        }
        return operations
    }
}

/// The three kinds of GraphQL operation.
public enum GraphQLOperationKind: String, Sendable, Hashable {
    /// A read.
    case query
    /// A write.
    case mutation
    /// A stream of results.
    case subscription
}
