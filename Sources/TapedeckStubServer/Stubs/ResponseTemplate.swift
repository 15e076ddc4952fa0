import Foundation
import TapedeckCore

/// A response whose body and header values are text with `{{…}}` placeholders filled from the request, so a stub
/// defined in JSON can still echo what it was sent. Placeholders:
///
/// | placeholder | value |
/// |---|---|
/// | `{{method}}` | the method |
/// | `{{path}}` | the decoded path |
/// | `{{path.NAME}}` | the `{NAME}` segment of the stub's path template |
/// | `{{query.NAME}}` | the first decoded query parameter `NAME` |
/// | `{{header.NAME}}` | the first header field `NAME` (case-insensitive) |
/// | `{{body}}` | the body as UTF-8 text |
/// | `{{json.a.b.0}}` | a member of the JSON body (strings unquoted, other values as JSON) |
///
/// A placeholder with no value is replaced by nothing.
///
/// ```swift
/// let greeting = try ResponseTemplate(status: 200, headers: ["X-Id": "{{path.id}}"], body: #"{"hello":"{{query.name}}"}"#)
/// server.add(Stub(RequestPattern(.get, "/users/{id}"), responder: .template(greeting)))
/// ```
public struct ResponseTemplate: Sendable, Hashable {
    /// Why a template is not valid.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The template text.
        public var template: String
        /// What is wrong, with its character offset.
        public var reason: String
        public var description: String { "invalid response template \"\(template)\": \(reason)" }
    }

    enum Piece: Sendable, Hashable {
        case text(String)
        case method, path, body
        case pathParameter(String), query(String), header(String), json([String])
    }

    /// The status code.
    public var status: Int
    /// Header values as templates.
    public let headerTemplates: [(name: String, value: String)]
    /// The body template.
    public let bodyTemplate: String
    private let headerPieces: [[Piece]]
    private let bodyPieces: [Piece]

    /// Parses the templates; throws ``Error`` naming the first bad placeholder.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: String) throws(Error) {
        self.status = status
        self.headerTemplates = headers.map { ($0.name, $0.value) }
        self.bodyTemplate = body
        self.headerPieces = try headers.map { field throws(Error) in try Self.parse(field.value) }
        self.bodyPieces = try Self.parse(body)
    }

    /// Splits `template` into text and placeholders.
    static func parse(_ template: String) throws(Error) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            let offset = template.distance(from: template.startIndex, to: open.lowerBound)
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw Error(template: template, reason: "\"{{\" at character \(offset) is never closed by \"}}\"")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            pieces.append(try piece(named: name, template: template, offset: offset))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    private static func piece(named name: String, template: String, offset: Int) throws(Error) -> Piece {
        switch name {
        case "method": return .method
        case "path": return .path
        case "body": return .body
        default: break
        }
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 2, !parts[1].isEmpty {
            switch parts[0] {
            case "path": return .pathParameter(parts[1])
            case "query": return .query(parts[1])
            case "header": return .header(parts[1])
            case "json": return .json(parts[1].split(separator: ".").map(String.init))
            default: break
            }
        }
        throw Error(template: template, reason: "unknown placeholder \"{{\(name)}}\" at character \(offset); use method, path, "
                    + "body, path.NAME, query.NAME, header.NAME or json.PATH")
    }

    /// The response for `request`.
    func render(_ request: RecordedRequest, pathParameters: [String: String]) -> StubResponse {
        var headers = HTTPHeaders()
        for (index, field) in headerTemplates.enumerated() {
            headers.add(name: field.name, value: Self.fill(headerPieces[index], request, pathParameters))
        }
        return StubResponse(status: status, headers: headers, body: .data(Data(Self.fill(bodyPieces, request, pathParameters).utf8)))
    }

    static func fill(_ pieces: [Piece], _ request: RecordedRequest, _ parameters: [String: String]) -> String {
        var json: JSONValue??
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): text += literal
            case .method: text += request.method.rawValue
            case .path: text += request.decodedPath
            case .body: text += String(decoding: request.body, as: UTF8.self)
            case .pathParameter(let name): text += parameters[name] ?? ""
            case .query(let name): text += request.queryItems.first { $0.name == name }?.value ?? ""
            case .header(let name): text += request.headers[name] ?? ""
            case .json(let path):
                if json == nil { json = .some(JSONValue(parsing: request.body)) }
                text += json!.flatMap { $0.value(at: path) }?.templateText ?? ""
            }
        }
        return text
    }

    public static func == (lhs: ResponseTemplate, rhs: ResponseTemplate) -> Bool {
        lhs.status == rhs.status && lhs.bodyTemplate == rhs.bodyTemplate
            && lhs.headerTemplates.elementsEqual(rhs.headerTemplates) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(bodyTemplate)
    }
}
