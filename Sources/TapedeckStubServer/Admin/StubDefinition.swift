import Foundation
import TapedeckCore

/// A stub as JSON: the format of the admin API and of stub files. The StubDefinitions article (TapedeckStubServer.docc) documents every field.
///
/// ```swift
/// let json = #"{"request": {"method": "GET", "pathTemplate": "/users/{id}"}, "response": {"status": 200, "jsonBody": {"id": 1}}}"#
/// let stub = try StubDefinition.decode(Data(json.utf8)).makeStub()
/// ```
public struct StubDefinition: Codable, Sendable, Hashable {
    /// The stub's ID; a UUID is made when absent.
    public var id: String?
    /// A name for reports.
    public var name: String?
    /// Smaller wins; default 5.
    public var priority: Int?
    /// Which requests the stub answers.
    public var request: RequestDefinition
    /// What it answers (absent only in listings of stubs whose response is a Swift closure).
    public var response: ResponseDefinition?
    /// A delay before answering.
    public var delay: DelayDefinition?
    /// A scenario condition and transition.
    public var scenario: ScenarioDefinition?
    /// A one-line summary, written in listings and ignored when read.
    public var summary: String?

    /// Creates a definition.
    public init(id: String? = nil, name: String? = nil, priority: Int? = nil, request: RequestDefinition,
                response: ResponseDefinition?, delay: DelayDefinition? = nil, scenario: ScenarioDefinition? = nil) {
        self.id = id
        self.name = name
        self.priority = priority
        self.request = request
        self.response = response
        self.delay = delay
        self.scenario = scenario
    }

    /// The request half of a definition.
    public struct RequestDefinition: Codable, Sendable, Hashable {
        /// The method, or absent for any.
        public var method: String?
        /// An exact path. At most one of `path`, `pathTemplate` and `pathRegex`.
        public var path: String?
        /// A path template with `{name}` segments and an optional final `**`.
        public var pathTemplate: String?
        /// A regular expression for the whole path.
        public var pathRegex: String?
        /// Conditions on query parameters.
        public var query: [String: ValueDefinition]?
        /// Conditions on header fields.
        public var headers: [String: ValueDefinition]?
        /// A condition on the body.
        public var body: BodyDefinition?

        /// Creates a request definition.
        public init(method: String? = nil, path: String? = nil, pathTemplate: String? = nil, pathRegex: String? = nil,
                    query: [String: ValueDefinition]? = nil, headers: [String: ValueDefinition]? = nil, body: BodyDefinition? = nil) {
            self.method = method
            self.path = path
            self.pathTemplate = pathTemplate
            self.pathRegex = pathRegex
            self.query = query
            self.headers = headers
            self.body = body
        }
    }

    /// A value condition: a string (equal to), or an object with exactly one of `equalTo`, `contains`, `matches`,
    /// `present: true`, `absent: true`.
    public struct ValueDefinition: Codable, Sendable, Hashable {
        /// Equal to this text.
        public var equalTo: String?
        /// Containing this text.
        public var contains: String?
        /// Matching this regular expression as a whole.
        public var matches: String?
        /// Present, whatever the value.
        public var present: Bool?
        /// Absent.
        public var absent: Bool?

        /// Creates a value condition.
        public init(equalTo: String? = nil, contains: String? = nil, matches: String? = nil, present: Bool? = nil, absent: Bool? = nil) {
            self.equalTo = equalTo
            self.contains = contains
            self.matches = matches
            self.present = present
            self.absent = absent
        }

        private enum CodingKeys: String, CodingKey { case equalTo, contains, matches, present, absent }

        /// Reads a bare string as `equalTo`, or the object form.
        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.init(equalTo: text)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(equalTo: try container.decodeIfPresent(String.self, forKey: .equalTo),
                      contains: try container.decodeIfPresent(String.self, forKey: .contains),
                      matches: try container.decodeIfPresent(String.self, forKey: .matches),
                      present: try container.decodeIfPresent(Bool.self, forKey: .present),
                      absent: try container.decodeIfPresent(Bool.self, forKey: .absent))
        }
    }

    /// A body condition: an object with exactly one of `equalTo` (text), `base64`, `contains`, `matches`, `json`,
    /// `jsonPartial`, `form`, `multipart`.
    public struct BodyDefinition: Codable, Sendable, Hashable {
        /// Exactly this UTF-8 text.
        public var equalTo: String?
        /// Exactly these bytes, base64.
        public var base64: String?
        /// Containing this text.
        public var contains: String?
        /// Matching this regular expression as a whole.
        public var matches: String?
        /// JSON equal to this.
        public var json: JSONValue?
        /// JSON containing this.
        public var jsonPartial: JSONValue?
        /// URL-encoded form fields.
        public var form: [String: ValueDefinition]?
        /// Multipart parts.
        public var multipart: [PartDefinition]?

        /// Creates a body condition.
        public init(equalTo: String? = nil, base64: String? = nil, contains: String? = nil, matches: String? = nil,
                    json: JSONValue? = nil, jsonPartial: JSONValue? = nil, form: [String: ValueDefinition]? = nil,
                    multipart: [PartDefinition]? = nil) {
            self.equalTo = equalTo
            self.base64 = base64
            self.contains = contains
            self.matches = matches
            self.json = json
            self.jsonPartial = jsonPartial
            self.form = form
            self.multipart = multipart
        }
    }

    /// One multipart part that must be present.
    public struct PartDefinition: Codable, Sendable, Hashable {
        /// The part's name.
        public var name: String
        /// Its file name.
        public var fileName: ValueDefinition?
        /// Its content type.
        public var contentType: ValueDefinition?
        /// Its body as text.
        public var body: ValueDefinition?

        /// Creates a part definition.
        public init(name: String, fileName: ValueDefinition? = nil, contentType: ValueDefinition? = nil, body: ValueDefinition? = nil) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.body = body
        }
    }

    /// The response half: `status`, `headers`, and at most one body source — `body` (text), `base64Body`,
    /// `jsonBody`, `bodyFile` (a path) — or a `fault` instead. With `template: true`, `body` and header values are
    /// ``ResponseTemplate``s. `chunked` dribbles the body.
    public struct ResponseDefinition: Codable, Sendable, Hashable {
        /// The status code; default 200.
        public var status: Int?
        /// Header fields.
        public var headers: [String: String]?
        /// The body as UTF-8 text.
        public var body: String?
        /// The body as base64.
        public var base64Body: String?
        /// The body as JSON.
        public var jsonBody: JSONValue?
        /// The body from this file.
        public var bodyFile: String?
        /// Whether `body` and header values are templates.
        public var template: Bool?
        /// Send the body in chunks at a pace.
        public var chunked: ChunkedDefinition?
        /// A fault instead of a response: `closeWithoutResponse`, `reset`, `malformedStatusLine`, `malformedHeaders`,
        /// `noResponse`, or `partialBody` with `partialBodySent` and `partialBodyDeclared`.
        public var fault: String?
        /// Bytes sent before the connection drops, for the `partialBody` fault.
        public var partialBodySent: Int?
        /// Bytes announced in `Content-Length`, for the `partialBody` fault.
        public var partialBodyDeclared: Int?

        /// Creates a response definition.
        public init(status: Int? = nil, headers: [String: String]? = nil, body: String? = nil, base64Body: String? = nil,
                    jsonBody: JSONValue? = nil, bodyFile: String? = nil, template: Bool? = nil, chunked: ChunkedDefinition? = nil,
                    fault: String? = nil, partialBodySent: Int? = nil, partialBodyDeclared: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.base64Body = base64Body
            self.jsonBody = jsonBody
            self.bodyFile = bodyFile
            self.template = template
            self.chunked = chunked
            self.fault = fault
            self.partialBodySent = partialBodySent
            self.partialBodyDeclared = partialBodyDeclared
        }
    }

    /// Chunked dribble: `bytesPerChunk` bytes every `intervalMilliseconds`.
    public struct ChunkedDefinition: Codable, Sendable, Hashable {
        /// Bytes per chunk.
        public var bytesPerChunk: Int
        /// Pause between chunks.
        public var intervalMilliseconds: Int?

        /// Creates a chunked definition.
        public init(bytesPerChunk: Int, intervalMilliseconds: Int? = nil) {
            self.bytesPerChunk = bytesPerChunk
            self.intervalMilliseconds = intervalMilliseconds
        }
    }

    /// A delay: `milliseconds`, or `minMilliseconds`…`maxMilliseconds` drawn with `seed`.
    public struct DelayDefinition: Codable, Sendable, Hashable {
        /// A fixed delay.
        public var milliseconds: Int?
        /// The shortest random delay.
        public var minMilliseconds: Int?
        /// The longest random delay.
        public var maxMilliseconds: Int?
        /// The random generator's seed; default 0.
        public var seed: UInt64?

        /// Creates a delay definition.
        public init(milliseconds: Int? = nil, minMilliseconds: Int? = nil, maxMilliseconds: Int? = nil, seed: UInt64? = nil) {
            self.milliseconds = milliseconds
            self.minMilliseconds = minMilliseconds
            self.maxMilliseconds = maxMilliseconds
            self.seed = seed
        }
    }

    /// A scenario step: see ``ScenarioStep``.
    public struct ScenarioDefinition: Codable, Sendable, Hashable {
        /// The scenario's name.
        public var name: String
        /// The state required, or absent for any.
        public var requiredState: String?
        /// The state to move to.
        public var newState: String?

        /// Creates a scenario definition.
        public init(name: String, requiredState: String? = nil, newState: String? = nil) {
            self.name = name
            self.requiredState = requiredState
            self.newState = newState
        }
    }
}
