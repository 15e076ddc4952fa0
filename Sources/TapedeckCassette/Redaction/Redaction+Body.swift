import Foundation

extension Redaction {
    /// Redacts an inline body: JSON members, form fields and regular expressions. Sidecar bodies are redacted by the
    /// recorder before they are written: a captured one by a ``BodyRedactionStream`` as it streams to disk
    /// (``BodyCapture``), one given whole in memory all at once (``BodyCapture/store(_:redacting:)``).
    func redactBody(_ body: CassetteBody, contentType: String?, headers: inout HTTPHeaders) -> CassetteBody {
        guard let data = body.inlineData, !data.isEmpty else { return body }
        let redacted = redactBodyBytes(data, contentType: contentType)
        guard redacted != data else { return body }
        if let length = headers["Content-Length"], Int(length) == data.count, body.contentEncoding == nil {
            headers["Content-Length"] = String(redacted.count)
        }
        return CassetteBody(redacted, contentEncoding: body.contentEncoding)
    }

    func redactBodyBytes(_ data: Data, contentType: String?) -> Data {
        var result = data
        let pathFilters = hasJSONPathFilters
        if redactsDefaults, !pathFilters, CompactJSONScanner.isUnmarked(data, marking: sensitiveMemberPredicate) {
            // The common body: JSON with no secret member name, checked in place without parsing, in any spelling.
            // (A marked name and JSON-path filters take the general path below.)
        } else if redactsDefaults || pathFilters, let value = CassetteJSON.parseBody(data) {
            // Most bodies hold nothing to redact: a walk that allocates nothing decides, and only a body with a
            // secret is rewritten, in its own spelling when the codec knows it (compact otherwise).
            if needsJSONRedaction(value, path: pathFilters ? "" : nil) {
                let style = BodyFormat.jsonStyle(of: data)?.style ?? .compact
                result = CassetteJSON.serialize(redactJSON(value, path: pathFilters ? "" : nil), style: style)
            }
        } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
                  let text = String(validating: data, as: UTF8.self) {
            let rewritten = redactPairs(text)
            if rewritten != text { result = Data(rewritten.utf8) }
        }
        if hasRegexFilters, let text = String(validating: result, as: UTF8.self) {
            let rewritten = applyRegexes(text)
            if rewritten != text { result = Data(rewritten.utf8) }
        }
        return result
    }

    var hasJSONPathFilters: Bool {
        filters.contains { if case .jsonPath = $0.kind { true } else { false } }
    }

    var hasRegexFilters: Bool {
        filters.contains { if case .regex = $0.kind { true } else { false } }
    }

    /// Whether ``redactJSON(_:path:)`` would change `value`. `path` is `nil` when no JSON-path filter needs it.
    func needsJSONRedaction(_ value: CassetteJSON, path: String?) -> Bool {
        if let path, jsonPathReplacement(path) != nil { return true }
        switch value {
        case .object(let members):
            return members.contains { member in
                if isSensitiveMember(member.key, value: member.value) { return true }
                return needsJSONRedaction(member.value, path: Self.child(member.key, of: path))
            }
        case .array(let elements):
            return elements.indices.contains { index in
                needsJSONRedaction(elements[index], path: Self.child("\(index)", of: path))
            }
        default:
            return false
        }
    }

    /// `value` with sensitive members and members matched by JSON-path filters replaced. `path` is `nil` when no
    /// JSON-path filter needs it.
    func redactJSON(_ value: CassetteJSON, path: String?) -> CassetteJSON {
        if let path, let replacement = jsonPathReplacement(path) { return .string(replacement) }
        switch value {
        case .object(let members):
            return .object(members.map { member in
                let childPath = Self.child(member.key, of: path)
                if let childPath, let replacement = jsonPathReplacement(childPath) { return .init(member.key, .string(replacement)) }
                if isSensitiveMember(member.key, value: member.value) {
                    return .init(member.key, .string(replacement(forMember: member.value)))
                }
                return .init(member.key, redactJSON(member.value, path: childPath))
            })
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                redactJSON(element, path: Self.child("\(index)", of: path))
            })
        default:
            return value
        }
    }

    /// What a sensitive member's value becomes: the replacement of its text (a string, number or boolean), or the
    /// placeholder for an array or object.
    func replacement(forMember value: CassetteJSON) -> String {
        switch value {
        case .string(let text), .number(let text): return replacement(for: text) ?? text
        case .bool(let flag): return replacement(for: flag ? "true" : "false") ?? (flag ? "true" : "false")
        default: return Redaction.placeholder
        }
    }

    /// The dotted path of a member or element (`account.iban`, `items.0`), or `nil` when paths are not tracked.
    static func child(_ name: String, of path: String?) -> String? {
        path.map { $0.isEmpty ? name : "\($0).\(name)" }
    }

    /// The replacement of the first JSON-path filter that names the place `path` (dotted, as ``child(_:of:)`` spells
    /// it), if one does.
    func jsonPathReplacement(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        for filter in filters {
            if case .jsonPath(let pattern, let replacement) = filter.kind, pattern.matches(dottedLocation: path) {
                return replacement
            }
        }
        return nil
    }
}
