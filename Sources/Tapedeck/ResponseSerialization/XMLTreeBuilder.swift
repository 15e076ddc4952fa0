import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs an `XMLParser` over a body and collects the elements into a ``ParsedXMLElement`` tree.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private struct OpenElement {
        var element: ParsedXMLElement
        var pendingText = ""
    }

    private var stack: [OpenElement] = []
    private var root: ParsedXMLElement?
    private var parseError: (any Error)?

    /// Parses `data`, returning the root element or throwing the parser's error.
    static func parse(_ data: Data, processesNamespaces: Bool) throws -> ParsedXMLElement {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = processesNamespaces
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let succeeded = parser.parse()
        parser.delegate = nil
        // FoundationXML on Linux can return `true` from `parse()` and still set `parserError` (e.g. for content
        // after the root element), so both are checked.
        if let error = parser.parserError ?? builder.parseError {
            throw error
        }
        guard succeeded, let root = builder.root else {
            throw NSError(
                domain: XMLParser.errorDomain,
                code: XMLParser.ErrorCode.emptyDocumentError.rawValue,
                userInfo: [NSDebugDescriptionErrorKey: "The document has no root element"]
            )
        }
        return root
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        flushText()
        let attributes = attributeDict
            .map { ParsedXMLElement.Attribute(name: $0.key, value: $0.value) }
            .sorted { $0.name < $1.name }
        let uri = namespaceURI.flatMap { $0.isEmpty ? nil : $0 }
        let element = ParsedXMLElement(name: elementName, namespaceURI: uri, attributes: attributes)
        stack.append(OpenElement(element: element))
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        flushText()
        guard let finished = stack.popLast()?.element else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].element.contents.append(.element(finished))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].pendingText += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].pendingText += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if self.parseError == nil { self.parseError = parseError }
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        if parseError == nil { parseError = validationError }
    }

    private func flushText() {
        guard let last = stack.indices.last, !stack[last].pendingText.isEmpty else { return }
        stack[last].element.contents.append(.text(stack[last].pendingText))
        stack[last].pendingText = ""
    }
}
