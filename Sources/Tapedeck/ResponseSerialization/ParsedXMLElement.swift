/// An XML element parsed into a `Sendable` value tree: what ``XMLParserResponseSerializer`` produces. Named so as
/// not to clash with Foundation's `XMLElement` and `XMLNode`.
///
/// ```swift
/// // <foo attr1="1"><bar>someValue</bar></foo>
/// root.name                            // "foo"
/// root[attribute: "attr1"]             // "1"
/// root.firstChild(named: "bar")?.text  // "someValue"
/// ```
public struct ParsedXMLElement: Sendable, Hashable {
    /// One attribute of an element.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name as written (with its prefix, e.g. `xml:lang`).
        public var name: String
        /// The attribute's value, with entities resolved.
        public var value: String

        /// Creates an attribute.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One piece of an element's content, in document order.
    public enum Content: Sendable, Hashable {
        /// A child element.
        case element(ParsedXMLElement)
        /// Character data (text or CDATA), with entities resolved; adjacent pieces are merged.
        case text(String)
    }

    /// The element's name: as written (`soap:Envelope`), or its local name (`Envelope`) when namespaces were
    /// processed.
    public var name: String
    /// The namespace URI, when namespaces were processed and the element has one.
    public var namespaceURI: String?
    /// The attributes, sorted by name (`XMLParser` reports them as a dictionary, so their order in the document
    /// is not known).
    public var attributes: [Attribute]
    /// Child elements and text, in document order.
    public var contents: [Content]

    /// Creates an element.
    public init(name: String, namespaceURI: String? = nil, attributes: [Attribute] = [], contents: [Content] = []) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.contents = contents
    }

    /// The child elements, in document order.
    public var children: [ParsedXMLElement] {
        contents.compactMap {
            if case .element(let element) = $0 { return element }
            return nil
        }
    }

    /// The element's own text (not its descendants'), concatenated and untrimmed.
    public var text: String {
        contents.reduce(into: "") { result, content in
            if case .text(let text) = content { result += text }
        }
    }

    /// The value of the attribute named `name`.
    public subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements named `name`.
    public func children(named name: String) -> [ParsedXMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child element named `name`.
    public func firstChild(named name: String) -> ParsedXMLElement? {
        for case .element(let element) in contents where element.name == name {
            return element
        }
        return nil
    }
}
