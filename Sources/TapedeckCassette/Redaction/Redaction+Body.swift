import Foundation

extension Redaction {
    /// Redacts an inline body: JSON members, form fields and regular expressions. Sidecar bodies are redacted by the
    /// recorder before they are written (``BodyCapture/finish(redacting:)``), up to ``BodyCapture/redactableLimit``.
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
        let type = contentType?.lowercased() ?? ""
        var result = data
        let hasJSONRules = redactsDefaults || filters.contains { if case .jsonPath = $0.kind { true } else { false } }
        if hasJSONRules, let styled = BodyFormat.jsonStyle(of: data) ?? parsedLeniently(data) {
            let rewritten = redactJSON(styled.value, path: "")
            if rewritten != styled.value { result = CassetteJSON.serialize(rewritten, style: styled.style) }
        } else if type.hasPrefix("application/x-www-form-urlencoded"), let text = String(validating: data, as: UTF8.self) {
            let rewritten = redactPairs(text)
            if rewritten != text { result = Data(rewritten.utf8) }
        }
        if filters.contains(where: { if case .regex = $0.kind { true } else { false } }),
           let text = String(validating: result, as: UTF8.self) {
            let rewritten = applyRegexes(text)
            if rewritten != text { result = Data(rewritten.utf8) }
        }
        return result
    }

    /// JSON in a spelling ``BodyFormat`` does not reproduce: redacted copies are written compact.
    private func parsedLeniently(_ data: Data) -> (value: CassetteJSON, name: String, style: JSONWritingStyle)? {
        guard let first = data.first(where: { $0 > 0x20 }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              let value = try? CassetteJSON.parse(data) else { return nil }
        return (value, "compact", .compact)
    }

    func redactJSON(_ value: CassetteJSON, path: String) -> CassetteJSON {
        if let replacement = jsonPathReplacement(path) { return .string(replacement) }
        switch value {
        case .object(let members):
            return .object(members.map { member in
                let childPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                if let replacement = jsonPathReplacement(childPath) { return .init(member.key, .string(replacement)) }
                if isSensitiveParameter(member.key) || isSensitiveHeader(member.key), member.value != .null {
                    return .init(member.key, .string(Redaction.placeholder))
                }
                return .init(member.key, redactJSON(member.value, path: childPath))
            })
        case .array(let elements):
            return .array(elements.enumerated().map { redactJSON($1, path: path.isEmpty ? "\($0)" : "\(path).\($0)") })
        default:
            return value
        }
    }

    private func jsonPathReplacement(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        for filter in filters {
            if case .jsonPath(let pattern, let replacement) = filter.kind, JSONPathPattern.matches(path, any: [pattern]) {
                return replacement
            }
        }
        return nil
    }
}
