import Foundation
import TapedeckCore

/// How a request body is matched.
///
/// ```swift
/// RequestPattern(.post, "/users").body(.jsonPartial(["name": "Ada"]))
/// RequestPattern(.post, "/login").body(.form(["user": "ada", "password": .present]))
/// RequestPattern(.post, "/upload").body(.multipart([.init(name: "file", fileName: "a.txt", body: .contains("hello"))]))
/// ```
public enum BodyPattern: Sendable, Hashable, CustomStringConvertible {
    /// Exactly these bytes.
    case equalTo(Data)
    /// The body, as UTF-8 text, contains this text.
    case contains(String)
    /// The body, as UTF-8 text, matches this regular expression as a whole.
    case matches(StubRegex)
    /// The body is JSON equal to this value (key order and whitespace do not matter).
    case json(JSONValue)
    /// The body is JSON containing this value: expected members must be present and match, extra members are allowed,
    /// and every expected array element must match a distinct element in any order.
    case jsonPartial(JSONValue)
    /// The body is `application/x-www-form-urlencoded` and each named field matches.
    case form([String: ValuePattern])
    /// The body is `multipart/form-data` and each described part is present and matches.
    case multipart([MultipartPartPattern])
    /// The body is JSON equal to this value, with array order and extra members and elements ignored as asked:
    /// WireMock's `equalToJson` with `ignoreArrayOrder` and `ignoreExtraElements` (``json(_:)`` is neither,
    /// ``jsonPartial(_:)`` both; ``json(_:ignoringArrayOrder:ignoringExtraElements:)`` picks the simplest case).
    case jsonEquivalent(JSONValue, ignoringArrayOrder: Bool, ignoringExtraElements: Bool)
    /// The body is JSON and the path finds something (see `JSONPath.hasMatch(in:)`), or, with a value pattern,
    /// the text of what it selects satisfies it (see `JSONPath.texts(in:)`; ``ValuePattern/absent`` when nothing
    /// is selected): WireMock's `matchesJsonPath`.
    case jsonPath(JSONPath, ValuePattern?)
    /// Every one of these patterns matches.
    case all([BodyPattern])

    /// Exactly this UTF-8 text.
    public static func text(_ text: String) -> BodyPattern { .equalTo(Data(text.utf8)) }

    /// JSON equal to `value` but for what is ignored: ``json(_:)`` when nothing is, ``jsonPartial(_:)`` when both
    /// are, ``jsonEquivalent(_:ignoringArrayOrder:ignoringExtraElements:)`` otherwise.
    public static func json(_ value: JSONValue, ignoringArrayOrder: Bool, ignoringExtraElements: Bool) -> BodyPattern {
        switch (ignoringArrayOrder, ignoringExtraElements) {
        case (false, false): return .json(value)
        case (true, true): return .jsonPartial(value)
        default: return .jsonEquivalent(value, ignoringArrayOrder: ignoringArrayOrder, ignoringExtraElements: ignoringExtraElements)
        }
    }

    /// `nil` when `request`'s body matches, or a sentence saying how it differs.
    func difference(_ request: RecordedRequest) -> String? {
        difference(body: request.body, contentType: request.headers["Content-Type"])
    }

    /// `nil` when `body` (of type `contentType`, which only a multipart pattern reads) matches, or a sentence saying
    /// how it differs: what a request body and a WebSocket message are matched with.
    func difference(body: Data, contentType: String?) -> String? {
        switch self {
        case .equalTo(let expected):
            return body == expected ? nil : "expected \(Self.preview(expected)), got \(Self.preview(body))"
        case .contains(let part):
            return String(decoding: body, as: UTF8.self).contains(part)
                ? nil : "expected a body containing \"\(part)\", got \(Self.preview(body))"
        case .matches(let regex):
            let text = String(decoding: body, as: UTF8.self)
            return regex.matchesWhole(text)
                ? nil : "expected a body matching \(regex), got \(Self.preview(body))" + regex.limitNote([text])
        case .json(let expected):
            guard let actual = JSONValue(parsing: body) else { return "expected JSON, got \(Self.preview(body))" }
            return actual == expected ? nil : "expected JSON \(expected.templateText), got \(actual.templateText)"
        case .jsonPartial(let expected):
            guard let actual = JSONValue(parsing: body) else { return "expected JSON, got \(Self.preview(body))" }
            return JSONPartialMatch.difference(expected: expected, actual: actual).map { "JSON at \($0)" }
        case .form(let fields):
            let pairs = URLEncodedForm.pairs(body)
            for name in fields.keys.sorted() {
                let values = pairs.filter { $0.name == name }.map(\.value)
                if let difference = fields[name]!.difference(values: values) { return "form field \(name): \(difference)" }
            }
            return nil
        case .jsonEquivalent(let expected, let ignoringArrayOrder, let ignoringExtraElements):
            guard let actual = JSONValue(parsing: body) else { return "expected JSON, got \(Self.preview(body))" }
            return JSONPartialMatch.difference(expected: expected, actual: actual, ignoringArrayOrder: ignoringArrayOrder,
                                               ignoringExtraElements: ignoringExtraElements).map { "JSON at \($0)" }
        case .jsonPath(let path, let value):
            guard let actual = JSONValue(parsing: body) else { return "expected JSON, got \(Self.preview(body))" }
            guard let value else {
                return path.hasMatch(in: actual) ? nil : "expected JSON with something at \(path), got \(actual.templateText)"
            }
            return value.difference(values: path.texts(in: actual)).map { "JSON at \(path): \($0)" }
        case .all(let patterns):
            for pattern in patterns {
                if let difference = pattern.difference(body: body, contentType: contentType) { return difference }
            }
            return nil
        case .multipart(let expectedParts):
                        let parts: [MultipartPart]
            do {
                parts = try MultipartParser.parts(of: body, contentType: contentType ?? "")
            } catch {
                return "expected a multipart body: \(error)"
            }
            for expected in expectedParts {
                let named = parts.filter { $0.name == expected.name }
                if named.isEmpty { return "multipart part \"\(expected.name)\" is missing" }
                let differences = named.compactMap(expected.difference)
                if differences.count == named.count { return "multipart part \"\(expected.name)\": \(differences[0])" }
            }
            return nil
        }
    }

    /// Up to 64 bytes of `data` as text, or its length when it is not UTF-8.
    static func preview(_ data: Data) -> String {
        if data.isEmpty { return "an empty body" }
        guard let text = String(data: data.prefix(64), encoding: .utf8) else { return "\(data.count) bytes of binary" }
        return "\"\(text)\"" + (data.count > 64 ? "… (\(data.count) bytes)" : "")
    }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .equalTo(let data): return "body \(Self.preview(data))"
        case .contains(let text): return "body containing \"\(text)\""
        case .matches(let regex): return "body matching \(regex)"
        case .json(let json): return "JSON body \(json.templateText)"
        case .jsonPartial(let json): return "JSON body containing \(json.templateText)"
        case .form(let fields): return "form " + fields.keys.sorted().map { "\($0) \(fields[$0]!)" }.joined(separator: ", ")
        case .multipart(let parts): return "multipart parts " + parts.map { "\"\($0.name)\"" }.joined(separator: ", ")
        case .jsonEquivalent(let json, let ignoringArrayOrder, let ignoringExtraElements):
            let ignored = [ignoringArrayOrder ? "array order" : nil, ignoringExtraElements ? "extra elements" : nil].compactMap { $0 }
            return "JSON body \(json.templateText) ignoring \(ignored.joined(separator: " and "))"
        case .jsonPath(let path, let value): return "JSON body with \(path)" + (value.map { " \($0)" } ?? "")
        case .all(let patterns): return patterns.map(\.description).joined(separator: " and ")
        }
    }
}

/// One part a multipart body must contain. Its JSON form is `{"name": "file", "fileName": …, "contentType": …,
/// "body": …}`, the last three optional ``ValuePattern``s.
public struct MultipartPartPattern: Sendable, Hashable, Codable {
    /// The part's `Content-Disposition` name.
    public var name: String
    /// Its file name, when it matters.
    public var fileName: ValuePattern?
    /// Its `Content-Type`, when it matters.
    public var contentType: ValuePattern?
    /// Its bytes as UTF-8 text, when they matter.
    public var body: ValuePattern?

    /// Creates a part pattern.
    public init(name: String, fileName: ValuePattern? = nil, contentType: ValuePattern? = nil, body: ValuePattern? = nil) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.body = body
    }

    func difference(_ part: MultipartPart) -> String? {
        if let fileName, let difference = fileName.difference(values: part.fileName.map { [$0] } ?? []) {
            return "file name \(difference)"
        }
        if let contentType, let difference = contentType.difference(values: part.contentType.map { [$0] } ?? []) {
            return "Content-Type \(difference)"
        }
        if let body, let difference = body.difference(values: [String(decoding: part.body, as: UTF8.self)]) {
            return "body \(difference)"
        }
        return nil
    }
}
