import TapedeckCore

/// What one OpenAPI operation allows, read once from the document, with schemas compiled into the document's
/// ``SchemaProgram``. A class, so scanning the operations for a request's path copies references, not rules.
final class OperationRules: Sendable {
    /// `GET`, `POST`, …
    let method: String
    let path: PathTemplate
    /// `operationId`, or `GET /pets/{petId}` when it has none.
    let label: String
    let parameters: [ParameterRule]
    let requestBody: BodyRule?
    let responses: [ResponseKey: ResponseRule]

    init(method: String, path: PathTemplate, label: String, parameters: [ParameterRule], requestBody: BodyRule?,
         responses: [ResponseKey: ResponseRule]) {
        self.method = method
        self.path = path
        self.label = label
        self.parameters = parameters
        self.requestBody = requestBody
        self.responses = responses
    }

    /// The response rules for `status`: the exact code, else its range (`4XX`), else `default`.
    func response(for status: Int) -> ResponseRule? {
        responses[.status(status)] ?? responses[.range(status / 100)] ?? responses[.default]
    }

    /// The documented status keys, for messages: `200, 404, 5XX, default`.
    var documentedStatuses: String {
        responses.keys.sorted().map(\.description).joined(separator: ", ")
    }
}

/// Where a parameter goes.
enum ParameterLocation: String, Sendable {
    case path, query, header, cookie
}

/// One parameter (of an operation, its path item, or a response header).
struct ParameterRule: Sendable {
    let name: String
    let location: ParameterLocation
    let required: Bool
    /// The compiled schema, when the parameter has one (`content`-described parameters are checked as JSON).
    let schema: Int?
    /// The schema as written, for values generated from it (response headers of a mock).
    let schemaSource: JSONValue?
    /// Whether several values are written as repeated `name=value` pairs (`form` + `explode`) rather than joined.
    let exploded: Bool
    /// The separator of a joined array value: `,` (form, simple), ` ` (spaceDelimited), `|` (pipeDelimited).
    let separator: Character
}

/// A request body or a response's content: media type ranges and their schemas.
struct BodyRule: Sendable {
    let required: Bool
    let mediaTypes: [MediaTypeRule]
}

/// One entry of a `content` map.
struct MediaTypeRule: Sendable {
    /// The media range, lowercased without parameters: `application/json`, `image/*`, `*/*`.
    let range: String
    let schema: Int?
    /// The schema as written (`$ref`s unresolved), for values generated from it.
    let schemaSource: JSONValue?
    /// The documented examples: `example` (named `""`), then each of `examples` with a value, in document order.
    let examples: [(name: String, value: JSONValue)]
}

/// A response: its headers and its content.
struct ResponseRule: Sendable {
    let headers: [ParameterRule]
    let content: BodyRule
}

/// A key of an operation's `responses` map.
enum ResponseKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    case status(Int)
    /// `2XX` is `.range(2)`.
    case range(Int)
    case `default`

    var description: String {
        switch self {
        case .status(let code): return String(code)
        case .range(let hundreds): return "\(hundreds)XX"
        case .default: return "default"
        }
    }

    private var order: (Int, Int) {
        switch self {
        case .status(let code): return (code, 0)
        case .range(let hundreds): return (hundreds * 100 + 99, 1)
        case .default: return (1000, 2)
        }
    }

    static func < (lhs: ResponseKey, rhs: ResponseKey) -> Bool { lhs.order < rhs.order }
}
