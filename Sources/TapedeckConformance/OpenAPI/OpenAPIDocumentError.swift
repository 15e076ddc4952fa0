/// An OpenAPI document that cannot be used for conformance checks: which file and what is wrong.
public struct OpenAPIDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document's file name or label.
    public var source: String
    /// What is wrong, with the place in the document when known, as a JSONPath (`$.paths['/pets'].get.responses`).
    public var reason: String

    /// Creates the error.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// `source: reason`.
    public var description: String { "\(source): \(reason)" }
}
