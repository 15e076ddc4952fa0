import Foundation
import TapedeckCore

/// A response whose body and header values are `TextTemplate`s with `{{…}}` placeholders filled from the request,
/// so a stub defined in JSON can still echo what it was sent (see `TextTemplate` for the placeholders).
///
/// ```swift
/// let greeting = try ResponseTemplate(status: 200, headers: ["X-Id": "{{path.id}}"], body: #"{"hello":"{{query.name}}"}"#)
/// server.add(Stub(RequestPattern(.get, "/users/{id}"), responder: .template(greeting)))
/// ```
public struct ResponseTemplate: Sendable, Hashable {
    /// Why a template is not valid.
    public typealias Error = TextTemplate.Error

    /// The status code.
    public var status: Int
    /// Header values as templates.
    public let headerTemplates: [(name: String, value: String)]
    /// The body template.
    public let bodyTemplate: String
    private let headers: [TextTemplate]
    private let body: TextTemplate

    /// Parses the templates; throws ``Error`` naming the first bad placeholder.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: String) throws(Error) {
        self.status = status
        self.headerTemplates = headers.map { ($0.name, $0.value) }
        self.bodyTemplate = body
        self.headers = try headers.map { field throws(Error) in try TextTemplate(field.value) }
        self.body = try TextTemplate(body)
    }

    /// The response for `request`.
    func render(_ request: RecordedRequest, pathParameters: [String: String]) -> StubResponse {
        let now = Date()
        var fields = HTTPHeaders()
        for (index, field) in headerTemplates.enumerated() {
            fields.add(name: field.name, value: headers[index].render(for: request, pathParameters: pathParameters, now: now))
        }
        let text = body.render(for: request, pathParameters: pathParameters, now: now)
        return StubResponse(status: status, headers: fields, body: .data(Data(text.utf8)))
    }

    /// Whether two templates were made from the same source text.
    public static func == (lhs: ResponseTemplate, rhs: ResponseTemplate) -> Bool {
        lhs.status == rhs.status && lhs.bodyTemplate == rhs.bodyTemplate
            && lhs.headerTemplates.elementsEqual(rhs.headerTemplates) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(bodyTemplate)
    }
}

extension RecordedRequest: TemplateRequest {
    /// The method.
    public var templateMethod: String { method.rawValue }
    /// The decoded path.
    public var templatePath: String { decodedPath }
    /// The body as received (up to the server's in-memory limit).
    public var templateBody: Data { body }
    /// The first decoded query parameter `name`.
    public func templateQuery(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
    /// The first header field `name`.
    public func templateHeader(_ name: String) -> String? { headers[name] }
}
