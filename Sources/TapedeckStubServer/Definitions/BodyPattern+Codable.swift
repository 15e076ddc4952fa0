import Foundation
import TapedeckCore

/// A body pattern's JSON form: an object with exactly one of `equalTo` (text), `base64`, `contains`, `matches`,
/// `json` (equal JSON; with `ignoreArrayOrder: true` and/or `ignoreExtraElements: true`, equal but for those),
/// `jsonPartial` (contained JSON), `jsonPath` (a `JSONPath`, with an optional `value` ``ValuePattern``), `form`
/// (name → ``ValuePattern``), `multipart` (an array of ``MultipartPartPattern``s) and `allOf` (an array of body
/// patterns that must all match).
extension BodyPattern: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case equalTo, base64, contains, matches, json, jsonPartial, form, multipart, jsonPath, allOf
        case ignoreArrayOrder, ignoreExtraElements, value
    }

    private static let choices = "equalTo, base64, contains, matches, json, jsonPartial, jsonPath, form, multipart, allOf"

    /// Decodes the one condition given.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let equalTo = try container.decodeIfPresent(String.self, forKey: .equalTo)
        let base64 = try container.decodeIfPresent(String.self, forKey: .base64)
        let contains = try container.decodeIfPresent(String.self, forKey: .contains)
        let matches = try container.decodeIfPresent(String.self, forKey: .matches)
        let json = try container.decodeIfPresent(JSONValue.self, forKey: .json)
        let jsonPartial = try container.decodeIfPresent(JSONValue.self, forKey: .jsonPartial)
        let form = try container.decodeIfPresent([String: ValuePattern].self, forKey: .form)
        let multipart = try container.decodeIfPresent([MultipartPartPattern].self, forKey: .multipart)
        let jsonPath = try container.decodeIfPresent(String.self, forKey: .jsonPath)
        let allOf = try container.decodeIfPresent([BodyPattern].self, forKey: .allOf)
        let ignoreArrayOrder = try container.decodeIfPresent(Bool.self, forKey: .ignoreArrayOrder)
        let ignoreExtraElements = try container.decodeIfPresent(Bool.self, forKey: .ignoreExtraElements)
        let value = try container.decodeIfPresent(ValuePattern.self, forKey: .value)
        if (ignoreArrayOrder != nil || ignoreExtraElements != nil) && json == nil {
            throw DecodingError.definition("ignoreArrayOrder and ignoreExtraElements apply to json only", at: decoder.codingPath)
        }
        if value != nil && jsonPath == nil {
            throw DecodingError.definition("value applies to jsonPath only", at: decoder.codingPath)
        }
        var found: [BodyPattern] = []
        if let equalTo { found.append(.text(equalTo)) }
        if let base64 {
            guard let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: container, debugDescription: "is not valid base64")
            }
            found.append(.equalTo(data))
        }
        if let contains { found.append(.contains(contains)) }
        if let matches {
            do { found.append(.matches(try StubRegex(matches))) } catch {
                throw DecodingError.dataCorruptedError(forKey: .matches, in: container, debugDescription: error.description)
            }
        }
        if let json {
            found.append(.json(json, ignoringArrayOrder: ignoreArrayOrder ?? false, ignoringExtraElements: ignoreExtraElements ?? false))
        }
        if let jsonPath {
            do { found.append(.jsonPath(try JSONPath(jsonPath), value)) } catch {
                throw DecodingError.dataCorruptedError(forKey: .jsonPath, in: container, debugDescription: error.description)
            }
        }
        if let allOf { found.append(.all(allOf)) }
        if let jsonPartial { found.append(.jsonPartial(jsonPartial)) }
        if let form { found.append(.form(form)) }
        if let multipart { found.append(.multipart(multipart)) }
        guard found.count == 1 else {
            throw DecodingError.definition(found.isEmpty ? "give one of \(Self.choices)" : "give only one of \(Self.choices)", at: decoder.codingPath)
        }
        self = found[0]
    }

    /// Encodes the condition; bytes that are not UTF-8 are written as `base64`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .equalTo(let data):
            if let text = String(data: data, encoding: .utf8) {
                try container.encode(text, forKey: .equalTo)
            } else {
                try container.encode(data.base64EncodedString(), forKey: .base64)
            }
        case .contains(let text): try container.encode(text, forKey: .contains)
        case .matches(let regex): try container.encode(regex.pattern, forKey: .matches)
        case .json(let json): try container.encode(json, forKey: .json)
        case .jsonPartial(let json): try container.encode(json, forKey: .jsonPartial)
        case .form(let fields): try container.encode(fields, forKey: .form)
        case .multipart(let parts): try container.encode(parts, forKey: .multipart)
        case .jsonEquivalent(let json, let ignoringArrayOrder, let ignoringExtraElements):
            try container.encode(json, forKey: .json)
            try container.encode(ignoringArrayOrder, forKey: .ignoreArrayOrder)
            try container.encode(ignoringExtraElements, forKey: .ignoreExtraElements)
        case .jsonPath(let path, let value):
            try container.encode(path.expression, forKey: .jsonPath)
            try container.encodeIfPresent(value, forKey: .value)
        case .all(let patterns): try container.encode(patterns, forKey: .allOf)
        }
    }
}
