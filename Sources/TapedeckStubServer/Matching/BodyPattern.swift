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

    /// Exactly this UTF-8 text.
    public static func text(_ text: String) -> BodyPattern { .equalTo(Data(text.utf8)) }

    /// `nil` when `request`'s body matches, or a sentence saying how it differs.
    func difference(_ request: RecordedRequest) -> String? {
        switch self {
        case .equalTo(let expected):
            return request.body == expected ? nil : "expected \(Self.preview(expected)), got \(Self.preview(request.body))"
        case .contains(let part):
            return String(decoding: request.body, as: UTF8.self).contains(part)
                ? nil : "expected a body containing \"\(part)\", got \(Self.preview(request.body))"
        case .matches(let regex):
            return regex.matchesWhole(String(decoding: request.body, as: UTF8.self))
                ? nil : "expected a body matching \(regex), got \(Self.preview(request.body))"
        case .json(let expected):
            guard let actual = JSONValue(parsing: request.body) else { return "expected JSON, got \(Self.preview(request.body))" }
            return actual == expected ? nil : "expected JSON \(expected.templateText), got \(actual.templateText)"
        case .jsonPartial(let expected):
            guard let actual = JSONValue(parsing: request.body) else { return "expected JSON, got \(Self.preview(request.body))" }
            return JSONPartialMatch.difference(expected: expected, actual: actual).map { "JSON at \($0)" }
        case .form(let fields):
            let pairs = URLEncodedForm.pairs(request.body)
            for name in fields.keys.sorted() {
                let values = pairs.filter { $0.name == name }.map(\.value)
                if let difference = fields[name]!.difference(values: values) { return "form field \(name): \(difference)" }
            }
            return nil
        case .multipart(let expectedParts):
            let contentType = request.headers["Content-Type"] ?? ""
            let parts: [MultipartPart]
            do {
                parts = try MultipartParser.parts(of: request.body, contentType: contentType)
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

    public var description: String {
        switch self {
        case .equalTo(let data): return "body \(Self.preview(data))"
        case .contains(let text): return "body containing \"\(text)\""
        case .matches(let regex): return "body matching \(regex)"
        case .json(let json): return "JSON body \(json.templateText)"
        case .jsonPartial(let json): return "JSON body containing \(json.templateText)"
        case .form(let fields): return "form " + fields.keys.sorted().map { "\($0) \(fields[$0]!)" }.joined(separator: ", ")
        case .multipart(let parts): return "multipart parts " + parts.map { "\"\($0.name)\"" }.joined(separator: ", ")
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
