import Foundation
import TapedeckCore

/// A value pattern's JSON form: a string (equal to it), or an object with exactly one of `equalTo`, `contains`,
/// `matches` (a regular expression for the whole value), `doesNotContain`, `doesNotMatch` (both also satisfied by an
/// absent field), `present: true` and `absent: true`.
extension ValuePattern: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case equalTo, contains, matches, doesNotContain, doesNotMatch, present, absent }

    private static let choices = "equalTo, contains, matches, doesNotContain, doesNotMatch, present"

    /// Decodes a plain string or the object form.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .equalTo(text)
            return
        }
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let equalTo = try container.decodeIfPresent(String.self, forKey: .equalTo)
        let contains = try container.decodeIfPresent(String.self, forKey: .contains)
        let matches = try container.decodeIfPresent(String.self, forKey: .matches)
        let doesNotContain = try container.decodeIfPresent(String.self, forKey: .doesNotContain)
        let doesNotMatch = try container.decodeIfPresent(String.self, forKey: .doesNotMatch)
        let present = try container.decodeIfPresent(Bool.self, forKey: .present)
        let absent = try container.decodeIfPresent(Bool.self, forKey: .absent)
        var found: [ValuePattern] = []
        if let equalTo { found.append(.equalTo(equalTo)) }
        if let contains { found.append(.contains(contains)) }
        if let matches {
            do { found.append(.matches(try StubRegex(matches))) } catch {
                throw DecodingError.definition(error.description, at: decoder.codingPath)
            }
        }
        if let doesNotContain { found.append(.doesNotContain(doesNotContain)) }
        if let doesNotMatch {
            do { found.append(.doesNotMatch(try StubRegex(doesNotMatch))) } catch {
                throw DecodingError.definition(error.description, at: decoder.codingPath)
            }
        }
        if present == true { found.append(.present) }
        if absent == true { found.append(.absent) }
        guard found.count == 1 else {
            throw DecodingError.definition(found.isEmpty ? "give one of \(Self.choices): true, absent: true (or a plain string)"
                                                         : "give only one of \(Self.choices), absent",
                                           at: decoder.codingPath)
        }
        self = found[0]
    }

    /// Encodes the object form, e.g. `{"equalTo": "2"}` or `{"absent": true}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .equalTo(let text): try container.encode(text, forKey: .equalTo)
        case .contains(let text): try container.encode(text, forKey: .contains)
        case .matches(let regex): try container.encode(regex.pattern, forKey: .matches)
        case .present: try container.encode(true, forKey: .present)
        case .absent: try container.encode(true, forKey: .absent)
        case .doesNotContain(let text): try container.encode(text, forKey: .doesNotContain)
        case .doesNotMatch(let regex): try container.encode(regex.pattern, forKey: .doesNotMatch)
        }
    }
}
