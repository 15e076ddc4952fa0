import Foundation
import TapedeckCore

extension Redaction {
    /// The literal secret values a request carries in the places the built-in rules redact (header values, the
    /// token of an `Authorization` header, cookie values, sensitive query parameters, form fields and JSON members),
    /// so that copies of them elsewhere (a server echoing the request, a URL inside a body) can be scrubbed too.
    func secretValues(of request: Interaction.Request, responseHeaders: HTTPHeaders? = nil) -> [String] {
        guard redactsDefaults else { return [] }
        var values: [String] = []
        func add(_ value: some StringProtocol) { Self.addSecret(value, to: &values) }
        for field in request.headers where isSensitiveHeader(field.name, value: field.value) {
            add(field.value)
            if let space = field.value.firstIndex(of: " ") { add(field.value[field.value.index(after: space)...]) }
            if field.name.lowercased() == "cookie" { Self.addCookieValues(field.value, to: &values) }
        }
        if Self.contains(request.url, byte: "?") {
            for pair in URLParts(request.url).decodedQueryPairs where isSensitiveParameter(pair.name, value: pair.value) { add(pair.value) }
        }
        if let data = request.body.inlineData, !data.isEmpty {
            if CompactJSONScanner.scan(data, marking: sensitiveMemberPredicate) == .plainCompact {
                // Compact JSON with no secret member name (checked in place): no secret to collect from it.
            } else if let json = CassetteJSON.parseBody(data) {
                collectJSONSecrets(json, add: add)
            } else if request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                for pair in URLEncodedForm.pairs(data) where isSensitiveParameter(pair.name, value: pair.value) { add(pair.value) }
            }
        }
        return Self.ordered(values + cookieSecrets(in: responseHeaders))
    }

    /// The cookie values a response sets (`Set-Cookie`), which copies in the request are scrubbed of too.
    func cookieSecrets(in responseHeaders: HTTPHeaders?) -> [String] {
        guard redactsDefaults, let responseHeaders else { return [] }
        var values: [String] = []
        for value in responseHeaders.values(for: "Set-Cookie") {
            // The cookie itself; the attributes after it (`Path`, `Expires`, …) are not secret.
            if let cookie = value.split(separator: ";").first { Self.addCookieValues(cookie, to: &values) }
        }
        return values
    }

    /// Adds the value of each `name=value` pair of a `Cookie`-style header (pairs separated by `;`).
    private static func addCookieValues(_ header: some StringProtocol, to values: inout [String]) {
        for pair in header.split(separator: ";") {
            let pieces = pair.split(separator: "=", maxSplits: 1)
            if pieces.count == 2 { addSecret(pieces[1], to: &values) }
        }
    }

    /// Secrets without repeats, longest first, so that a secret containing another is replaced whole.
    static func ordered(_ values: [String]) -> [String] {
        Array(Set(values)).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Adds `value`, trimmed, to `values` when it is long enough to be a secret and is not a placeholder.
    static func addSecret(_ value: some StringProtocol, to values: inout [String]) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 4, trimmed != Redaction.placeholder, trimmed != Redaction.encodedPlaceholder { values.append(trimmed) }
    }

    private func collectJSONSecrets(_ value: CassetteJSON, add: (String) -> Void) {
        switch value {
        case .object(let members):
            for member in members {
                if isSensitiveMember(member.key, value: member.value) {
                    if case .string(let text) = member.value { add(text) }
                    if case .number(let text) = member.value { add(text) }
                } else {
                    collectJSONSecrets(member.value, add: add)
                }
            }
        case .array(let elements):
            for element in elements { collectJSONSecrets(element, add: add) }
        default:
            break
        }
    }

    /// `text` with every copy of `secrets` (as written, percent-encoded, or with `/` escaped as in JSON) replaced.
    func scrub(_ text: String, secrets: [String], placeholder: String = Redaction.placeholder) -> String {
        var result = text
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: placeholder)
            if secret.contains("/") { result = result.replacingOccurrences(of: secret.replacingOccurrences(of: "/", with: "\\/"), with: placeholder) }
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: Redaction.encodedPlaceholder)
            }
        }
        return result
    }

    /// A body with copies of `secrets` scrubbed, when it is text.
    func scrub(_ body: CassetteBody, secrets: [String], headers: inout HTTPHeaders) -> CassetteBody {
        guard !secrets.isEmpty, let data = body.inlineData, !data.isEmpty, let text = String(validating: data, as: UTF8.self) else { return body }
        let scrubbed = scrub(text, secrets: secrets)
        guard scrubbed != text else { return body }
        if let length = headers["Content-Length"], Int(length) == data.count, body.contentEncoding == nil {
            headers["Content-Length"] = String(scrubbed.utf8.count)
        }
        return CassetteBody(Data(scrubbed.utf8), contentEncoding: body.contentEncoding)
    }

    /// An interaction with every copy of `secrets` scrubbed (URLs, headers, bodies, error messages), whatever the
    /// policy: for secrets put into a request on its way out (``PlaceholderSecrets``), which must never be written.
    func scrub(_ interaction: inout Interaction, secrets: [String]) {
        guard !secrets.isEmpty else { return }
        interaction.request.url = scrub(interaction.request.url, secrets: secrets, placeholder: Redaction.encodedPlaceholder)
        interaction.request.headers = scrub(interaction.request.headers, secrets: secrets)
        interaction.request.body = scrub(interaction.request.body, secrets: secrets, headers: &interaction.request.headers)
        switch interaction.outcome {
        case .response(var response):
            response.headers = scrub(response.headers, secrets: secrets)
            response.url = response.url.map { scrub($0, secrets: secrets, placeholder: Redaction.encodedPlaceholder) }
            response.body = scrub(response.body, secrets: secrets, headers: &response.headers)
            interaction.outcome = .response(response)
        case .failure(var failure):
            failure.message = scrub(failure.message, secrets: secrets)
            failure.transportMessage = failure.transportMessage.map { scrub($0, secrets: secrets) }
            interaction.outcome = .failure(failure)
        }
    }

    /// Header values with copies of `secrets` scrubbed.
    func scrub(_ headers: HTTPHeaders, secrets: [String]) -> HTTPHeaders {
        guard !secrets.isEmpty else { return headers }
        return HTTPHeaders(headers.fields.map { HTTPHeaders.Field(name: $0.name, value: scrub($0.value, secrets: secrets)) })
    }
}
