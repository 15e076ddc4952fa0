import Foundation
import TapedeckCore

/// A stub's JSON form, the format of the admin API and of stub files (the StubDefinitions article documents every
/// field): `id`, `name`, `priority`, `request` (a ``RequestPattern``), `response` (a ``StubResponder``) or
/// `webSocket` (a ``WebSocketStub``), `delay` (a ``StubDelay``) and `scenario` (a ``ScenarioStep``). Decoding checks every field and throws `DecodingError`s that
/// ``StubDefinitionError`` turns into `place: reason`; encoding adds a one-line `summary`, ignored when read.
///
/// ```swift
/// let json = #"{"request": {"method": "GET", "pathTemplate": "/users/{id}"}, "response": {"status": 200, "jsonBody": {"id": 1}}}"#
/// let stub = try Stub.decode(Data(json.utf8))
/// ```
extension Stub: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case id, name, priority, request, response, webSocket, delay, scenario, summary }

    /// Decodes a stub definition; an absent `id` gets a new UUID, an absent `priority` the default.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decodeIfPresent(ID.self, forKey: .id) ?? UUID().uuidString
        let name = try container.decodeIfPresent(String.self, forKey: .name)
        let priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? Stub.defaultPriority
        let request = try container.decode(RequestPattern.self, forKey: .request)
        let responder: StubResponder
        if container.contains(.webSocket) {
            guard !container.contains(.response) else {
                throw DecodingError.definition("give either response or webSocket, not both", at: decoder.codingPath)
            }
            responder = .webSocket(try container.decode(WebSocketStub.self, forKey: .webSocket))
        } else {
            responder = try container.decode(StubResponder.self, forKey: .response)
        }
        self.init(id: id, name: name, request, priority: priority, responder: responder,
                  delay: try container.decodeIfPresent(StubDelay.self, forKey: .delay),
                  scenario: try container.decodeIfPresent(ScenarioStep.self, forKey: .scenario))
    }

    /// Encodes the stub for listings; a closure responder has no JSON form, so its `response` is absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        if priority != Self.defaultPriority { try container.encode(priority, forKey: .priority) }
        try container.encode(matcher, forKey: .request)
        if case .webSocket(let webSocket) = responder {
            try container.encode(webSocket, forKey: .webSocket)
        } else if responder.hasJSONForm {
            try container.encode(responder, forKey: .response)
        }
        try container.encodeIfPresent(delay, forKey: .delay)
        try container.encodeIfPresent(scenario, forKey: .scenario)
        try container.encode(summary, forKey: .summary)
    }

    /// Decodes one definition, an array of them, or `{"stubs": [...]}`. A response's `bodyFile` names a file inside
    /// `filesDirectory` (for a stub file, the folder it is in), resolved with symbolic links before the check; without
    /// one (the admin API), a `bodyFile` is refused.
    ///
    /// ```swift
    /// let stubs = try Stub.decodeList(Data(contentsOf: file), filesDirectory: file.deletingLastPathComponent())
    /// ```
    public static func decodeList(_ data: Data, filesDirectory: URL? = nil) throws(StubDefinitionError) -> [Stub] {
        struct Wrapped: Decodable { var stubs: [Stub] }
        let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.first == UInt8(ascii: "[") {
            return try StubDefinitionError.decoding([Stub].self, from: data, filesDirectory: filesDirectory)
        }
        if let json = JSONValue(parsing: data), json["stubs"] != nil {
            return try StubDefinitionError.decoding(Wrapped.self, from: data, filesDirectory: filesDirectory).stubs
        }
        return [try decode(data, filesDirectory: filesDirectory)]
    }

    /// Decodes one definition; `filesDirectory` as in ``decodeList(_:filesDirectory:)``.
    public static func decode(_ data: Data, filesDirectory: URL? = nil) throws(StubDefinitionError) -> Stub {
        try StubDefinitionError.decoding(Stub.self, from: data, filesDirectory: filesDirectory)
    }
}
