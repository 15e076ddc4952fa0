/// One way a recorded interaction breaks an OpenAPI document.
///
/// ```swift
/// violation.description  // "response body /items/0/id: type: expected integer, found a string"
/// ```
public struct ConformanceViolation: Hashable, Sendable, CustomStringConvertible {
    /// The part of the exchange at fault.
    public enum Place: Hashable, Sendable, CustomStringConvertible {
        /// The request matches no operation (path or method).
        case operation
        /// The path parameter of this name.
        case pathParameter(String)
        /// The query parameter of this name.
        case queryParameter(String)
        /// The request header field of this name.
        case requestHeader(String)
        /// The cookie of this name.
        case cookie(String)
        /// The request body (its media type or its content).
        case requestBody
        /// The response status is not documented.
        case status
        /// The response header field of this name.
        case responseHeader(String)
        /// The response body (its media type or its content).
        case responseBody

        /// `path parameter petId`, `response body`, …
        public var description: String {
            switch self {
            case .operation: return "operation"
            case .pathParameter(let name): return "path parameter \(name)"
            case .queryParameter(let name): return "query parameter \(name)"
            case .requestHeader(let name): return "request header \(name)"
            case .cookie(let name): return "cookie \(name)"
            case .requestBody: return "request body"
            case .status: return "status"
            case .responseHeader(let name): return "response header \(name)"
            case .responseBody: return "response body"
            }
        }
    }

    /// The part of the exchange at fault.
    public var place: Place
    /// The JSON pointer of the offending value inside a body or parameter value (`""` for the whole value), or `nil`
    /// when the rule is about the exchange (an undocumented status, a missing parameter).
    public var pointer: String?
    /// The broken rule: a JSON Schema keyword (`type`, `required`, …) or an OpenAPI rule (`path`, `method`,
    /// `required`, `mediaType`, `status`, `json`).
    public var rule: String
    /// What was wrong, in words; never a header or cookie value.
    public var message: String

    /// Creates a violation.
    public init(place: Place, pointer: String? = nil, rule: String, message: String) {
        self.place = place
        self.pointer = pointer
        self.rule = rule
        self.message = message
    }

    /// `place pointer: rule: message`, e.g. `response body /items/0/id: type: expected integer, found a string`.
    public var description: String {
        let pointerText = pointer.map { " " + ($0.isEmpty ? "/" : $0) } ?? ""
        return "\(place)\(pointerText): \(rule): \(message)"
    }
}

/// The conformance of one interaction of a cassette.
public struct InteractionConformance: Hashable, Sendable {
    /// The interaction's position in the cassette, from 0.
    public var index: Int
    /// `GET https://api.example.com/pets/1 → 200`
    public var summary: String
    /// The operation it matched (`operationId`, or `GET /pets/{petId}`), or `nil` when it matched none.
    public var operation: String?
    /// Empty when the interaction conforms.
    public var violations: [ConformanceViolation]

    /// Whether the interaction breaks no rule of the document.
    public var conforms: Bool { violations.isEmpty }
}
