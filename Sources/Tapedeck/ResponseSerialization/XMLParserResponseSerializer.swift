import Foundation

/// Validates a response and parses its body as XML into a ``ParsedXMLElement`` tree: the role of AFNetworking's
/// `AFXMLParserResponseSerializer`, which hands back an unstarted `NSXMLParser`. Here the document is parsed at
/// once with Foundation's `XMLParser` (FoundationXML on Linux) so the result is a `Sendable` value and a malformed
/// document fails the response.
///
/// - Accepts `application/xml` and `text/xml` (and status 200–299) by default.
/// - An empty body gives `nil` without an error.
/// - A malformed document throws ``ResponseSerializationError/decodingFailed(_:head:data:underlying:)`` (-1016)
///   with the parser's `NSXMLParserErrorDomain` error underneath.
/// - External entities are never resolved.
///
/// ```swift
/// let root = try XMLParserResponseSerializer().serialize(head: head, data: body)
/// root?.firstChild(named: "bar")?.text
/// ```
public struct XMLParserResponseSerializer: ValidatingResponseSerializer {
    /// The MIME types accepted by default: `application/xml`, `text/xml`.
    public static let defaultContentTypes: Set<String> = ["application/xml", "text/xml"]

    /// The status and content-type rules; default 2xx and ``defaultContentTypes``.
    public var validation: ResponseValidation
    /// Whether element names are split into a local name and a namespace URI. Default `false`: names are kept
    /// as written, prefix included.
    public var processesNamespaces: Bool

    /// Creates a serializer.
    public init(
        processesNamespaces: Bool = false,
        validation: ResponseValidation = ResponseValidation(
            acceptableContentTypes: XMLParserResponseSerializer.defaultContentTypes
        )
    ) {
        self.processesNamespaces = processesNamespaces
        self.validation = validation
    }

    /// Validates, then parses the body; `nil` for an empty body.
    public func serialize(head: HTTPResponseHead?, data: Data?) throws -> ParsedXMLElement? {
        try validation.validate(head: head, data: data)
        guard let data, !data.isEmpty else { return nil }
        do {
            return try XMLTreeBuilder.parse(data, processesNamespaces: processesNamespaces)
        } catch {
            throw ResponseSerializationError.decodingFailed(.xml, head: head, data: data, underlying: error)
        }
    }
}
