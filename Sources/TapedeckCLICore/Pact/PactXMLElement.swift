import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML body as Pact's matchers see it (pact_matching and pact-jvm alike): an element is named by its namespace URI
/// and local name (`urn:alligators:alligator`, or `alligator` outside any namespace), whatever prefix the document
/// used; so are attributes, and namespace declarations are not attributes; an element's text is its text and CDATA
/// pieces, each trimmed, joined.
///
/// ```swift
/// let root = try PactXMLElement.parse(#"<a:zoo xmlns:a="urn:z" size="2"><a:cat> Tom </a:cat></a:zoo>"#).get()
/// root.name                    // "urn:z:zoo"
/// root.children.first?.text    // "Tom"
/// ```
struct PactXMLElement: Equatable, Sendable {
    /// `urn:z:zoo`, or the local name alone outside any namespace.
    var name: String
    /// Attribute names (namespaced as element names are) and values.
    var attributes: [String: String] = [:]
    /// Child elements, in document order.
    var children: [PactXMLElement] = []
    /// The element's own text, each piece trimmed.
    var text = ""

    /// Why a body is not well-formed XML: where the parser stopped, and its error code.
    struct ParseError: Error, CustomStringConvertible, Equatable {
        var line: Int
        var column: Int
        var code: Int
        var description: String { "not well-formed XML at line \(line), column \(column) (XMLParser error \(code))" }
    }

    /// Parses `text` (external entities are never loaded; libxml2's own limits on entity expansion and nesting apply).
    static func parse(_ text: String) -> Result<PactXMLElement, ParseError> {
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        let succeeded = parser.parse()
        parser.delegate = nil
        if let error = parser.parserError ?? builder.error {
            return .failure(ParseError(line: parser.lineNumber, column: parser.columnNumber, code: (error as NSError).code))
        }
        guard succeeded, let root = builder.root else {
            return .failure(ParseError(line: parser.lineNumber, column: parser.columnNumber, code: XMLParser.ErrorCode.emptyDocumentError.rawValue))
        }
        return .success(root)
    }

    /// Collects the tree, resolving attribute prefixes through the namespace declarations in scope.
    private final class Builder: NSObject, XMLParserDelegate {
        private struct Open {
            var element: PactXMLElement
            var namespaces: [String: String]
            var pending = ""
        }

        private var stack: [Open] = []
        private var declared: [String: String] = [:]
        var root: PactXMLElement?
        var error: (any Error)?

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            declared[prefix] = namespaceURI
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                    attributes attributeDict: [String: String] = [:]) {
            flush()
            var namespaces = stack.last?.namespaces ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
            namespaces.merge(declared) { $1 }
            declared = [:]
            var attributes: [String: String] = [:]
            for (key, value) in attributeDict {
                if key == "xmlns" { namespaces[""] = value } else if key.hasPrefix("xmlns:") { namespaces[String(key.dropFirst(6))] = value }
            }
            for (key, value) in attributeDict where key != "xmlns" && !key.hasPrefix("xmlns:") {
                attributes[Self.qualified(key, namespaces: namespaces, unprefixedURI: nil)] = value
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let uri = namespaceURI.flatMap { $0.isEmpty ? nil : $0 }
            let name = uri.map { "\($0):\(local)" } ?? Self.qualified(qName ?? elementName, namespaces: namespaces, unprefixedURI: namespaces[""])
            stack.append(Open(element: PactXMLElement(name: name, attributes: attributes), namespaces: namespaces))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            flush()
            guard let finished = stack.popLast()?.element else { return }
            if stack.isEmpty { root = finished } else { stack[stack.count - 1].element.children.append(finished) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].pending += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            flush()
            if !stack.isEmpty { stack[stack.count - 1].pending += String(decoding: CDATABlock, as: UTF8.self) }
            flush()
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = parseError }
        }

        /// Ends the text piece in progress: Pact trims each one.
        private func flush() {
            guard let last = stack.indices.last, !stack[last].pending.isEmpty else { return }
            stack[last].element.text += stack[last].pending.trimmingCharacters(in: .whitespacesAndNewlines)
            stack[last].pending = ""
        }

        /// `prefix:local` as `uri:local` when the prefix is declared; an unprefixed name in `unprefixedURI`.
        private static func qualified(_ name: String, namespaces: [String: String], unprefixedURI: String?) -> String {
            guard let colon = name.firstIndex(of: ":") else { return unprefixedURI.map { "\($0):\(name)" } ?? name }
            let local = name[name.index(after: colon)...]
            return namespaces[String(name[..<colon])].map { "\($0):\(local)" } ?? name
        }
    }
}
