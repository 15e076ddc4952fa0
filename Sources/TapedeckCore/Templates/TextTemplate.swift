import Foundation

/// Text with `{{…}}` placeholders filled from a request: stub responses defined in JSON and templated cassette
/// responses echo what they were sent with it. Placeholders (a `request.` prefix is accepted on the request ones):
///
/// | placeholder | value |
/// |---|---|
/// | `{{method}}` | the method |
/// | `{{path}}` | the decoded path |
/// | `{{path.NAME}}` | the `{NAME}` segment of a stub's path template |
/// | `{{query.NAME}}` | the first decoded query parameter `NAME` |
/// | `{{header.NAME}}` | the first header field `NAME` (case-insensitive) |
/// | `{{body}}` | the body as UTF-8 text |
/// | `{{json.a.b.0}}` | the first value a ``JSONPath`` (`a.b.0`, `$.a.b[0]`) selects in the JSON body (strings unquoted, other values as JSON) |
/// | `{{now}}` | the time of the answer, ISO 8601 in UTC with milliseconds |
/// | `{{now.http}}` | the same as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`) |
///
/// A placeholder with no value is replaced by nothing.
///
/// ```swift
/// let template = try TextTemplate(#"{"id":"{{request.header.X-Request-Id}}","at":"{{now}}"}"#)
/// let text = template.render(for: request)
/// ```
public struct TextTemplate: Sendable, Hashable {
    /// Why a template is not valid.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The template text.
        public var template: String
        /// What is wrong, with its character offset.
        public var reason: String
        /// How messages and reports print it.
        public var description: String { "invalid response template \"\(template)\": \(reason)" }
    }

    enum Piece: Sendable, Hashable {
        case text(String)
        case method, path, body, now, httpNow
        case pathParameter(String), query(String), header(String), json(JSONPath)
    }

    /// The template's text.
    public let text: String
    let pieces: [Piece]

    /// Parses `text`; throws ``Error`` naming the first bad placeholder.
    public init(_ text: String) throws(Error) {
        self.text = text
        pieces = try Self.parse(text)
    }

    /// Whether the text has any placeholder (otherwise it renders as itself).
    public var hasPlaceholders: Bool { pieces.contains { if case .text = $0 { false } else { true } } }

    /// The text with its placeholders filled from `request`, the stub's `{NAME}` path segments, and `now`.
    public func render(for request: some TemplateRequest, pathParameters: [String: String] = [:], now: Date = Date()) -> String {
        var json: JSONValue??
        var rendered = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): rendered += literal
            case .method: rendered += request.templateMethod
            case .path: rendered += request.templatePath
            case .body: rendered += String(decoding: request.templateBody, as: UTF8.self)
            case .now: rendered += Timestamp.format(now)
            case .httpNow: rendered += HTTPDate.format(now)
            case .pathParameter(let name): rendered += pathParameters[name] ?? ""
            case .query(let name): rendered += request.templateQuery(name) ?? ""
            case .header(let name): rendered += request.templateHeader(name) ?? ""
            case .json(let path):
                if json == nil { json = .some(JSONValue(parsing: request.templateBody)) }
                rendered += json!.flatMap { path.select(in: $0).first }?.templateText ?? ""
            }
        }
        return rendered
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

    private static func piece(named given: String, template: String, offset: Int) throws(Error) -> Piece {
        switch given {
        case "now": return .now
        case "now.http": return .httpNow
        default: break
        }
        let name = given.hasPrefix("request.") ? String(given.dropFirst("request.".count)) : given
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
            case "json":
                do { return .json(try JSONPath(parts[1])) } catch {
                    throw Error(template: template, reason: "\(error) (the placeholder \"{{\(given)}}\" at character \(offset))")
                }
            default: break
            }
        }
        throw Error(template: template, reason: "unknown placeholder \"{{\(given)}}\" at character \(offset); use method, path, "
                    + "body, path.NAME, query.NAME, header.NAME, json.PATH (each optionally after request.), now or now.http")
    }
}
