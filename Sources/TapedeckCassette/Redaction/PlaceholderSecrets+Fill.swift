import Foundation
import TapedeckCore

extension PlaceholderSecrets {
    /// `request` with each redaction placeholder it carries replaced by its secret (headers, query parameters, the
    /// URL's password, JSON members and form fields of an in-memory body) and the ``credentials`` for its host set.
    /// A placeholder with no value stays as it is and is listed in ``SecretFill/missing``. File and stream bodies are
    /// sent as they are.
    ///
    /// ```swift
    /// let fill = PlaceholderSecrets(values: ["AUTHORIZATION_BEARER": token]).fill(request)
    /// for placeholder in fill.missing { print("\(placeholder): \(placeholder.howToSupply)") }
    /// let response = try await transport.send(fill.request)
    /// ```
    public func fill(_ request: HTTPRequest) -> SecretFill {
        var result = SecretFill(request: request, filled: [], missing: [], secrets: [])
        guard !isEmpty else { return result }
        let marker = "REDACTED"
        if request.url.absoluteString.contains(marker) { fillURL(&result) }
        if request.headers.contains(where: { $0.value.contains(marker) }) { fillHeaders(&result) }
        if case .data(let body) = request.body, body.range(of: Data(marker.utf8)) != nil { fillBody(body, &result) }
        for credential in credentials where credential.applies(to: request.url) {
            result.request.headers.replaceOrAdd(name: credential.header, value: credential.value)
            result.secrets += credential.secretTexts
        }
        result.secrets = Redaction.ordered(result.secrets)
        return result
    }

    /// Looks up `placeholder`, noting it as filled or missing, and returns its value.
    private func resolve(_ placeholder: Placeholder, _ result: inout SecretFill) -> String? {
        guard let value = value(for: placeholder.secretNames) else {
            result.missing.append(placeholder)
            return nil
        }
        result.filled.append(placeholder)
        Redaction.addSecret(value, to: &result.secrets, minimumLength: Redaction.minimumKnownSecretLength)
        return value
    }

    private func placeholder(_ location: Placeholder.Location, _ name: String) -> Placeholder {
        Placeholder(location: location, name: name, secretNames: [Self.secretName(name)])
    }

    // MARK: - Headers

    private func fillHeaders(_ result: inout SecretFill) {
        var fields = result.request.headers.fields
        for index in fields.indices {
            let value = fields[index].value
            if Self.isPlaceholder(value) {
                if let secret = resolve(placeholder(.header, fields[index].name), &result) { fields[index].value = secret }
            } else if fields[index].name.lowercased() == "cookie", StandIn.mayContain(value) {
                fields[index].value = fillCookies(value, &result)
            } else if let space = value.firstIndex(of: " "), Self.isPlaceholder(value[value.index(after: space)...]) {
                let scheme = String(value[..<space])
                guard !scheme.isEmpty else { continue }
                let name = fields[index].name
                let found = Placeholder(location: .header, name: name,
                                        secretNames: [Self.secretName(name + "_" + scheme), Self.secretName(name)])
                guard let secret = resolve(found, &result) else { continue }
                let filled = Self.credential(secret, scheme: scheme)
                fields[index].value = filled
                Redaction.addSecret(filled.dropFirst(scheme.count + 1), to: &result.secrets, minimumLength: Redaction.minimumKnownSecretLength)
            }
        }
        result.request.headers = HTTPHeaders(fields)
    }

    /// Whether `value` is wholly a placeholder: `[REDACTED]` or a ``StandIn``.
    static func isPlaceholder(_ value: some StringProtocol) -> Bool {
        value == Redaction.placeholder || StandIn.isStandIn(value)
    }

    /// A `Cookie` header whose cookie values are stand-ins, each filled from `COOKIE_<name>` (`session` →
    /// `TAPEDECK_SECRET_COOKIE_SESSION`), or the whole header from `COOKIE`.
    private func fillCookies(_ header: String, _ result: inout SecretFill) -> String {
        let whole = Placeholder(location: .header, name: "Cookie", secretNames: ["COOKIE"])
        if value(for: whole.secretNames) != nil, let secret = resolve(whole, &result) { return secret }
        var filled = header
        for pair in header.split(separator: ";") {
            let pieces = pair.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, StandIn.isStandIn(pieces[1]) else { continue }
            let name = pieces[0].trimmingCharacters(in: .whitespaces)
            let found = Placeholder(location: .header, name: "Cookie \(name)", secretNames: [Self.secretName("COOKIE_" + name)])
            guard let secret = resolve(found, &result) else { continue }
            if let range = filled.range(of: String(pair)) {
                filled.replaceSubrange(range, with: pieces[0] + "=" + secret)
            }
        }
        return filled
    }

    /// The header value for a secret under an authentication scheme: the secret as it is when it starts with the
    /// scheme; for `Basic`, `user:password` base64-encoded; otherwise the scheme, a space and the secret.
    static func credential(_ secret: String, scheme: String) -> String {
        if secret.count > scheme.count, secret.lowercased().hasPrefix(scheme.lowercased() + " ") { return secret }
        if scheme.lowercased() == "basic", secret.contains(":") {
            return scheme + " " + Data(secret.utf8).base64EncodedString()
        }
        return scheme + " " + secret
    }

    // MARK: - URL

    private func fillURL(_ result: inout SecretFill) {
        let text = result.request.url.absoluteString
        var rewritten = text
        let parts = URLParts(text)
        if let query = parts.query, !query.isEmpty {
            let filledQuery = fillPairs(query, location: .queryParameter, &result)
            if filledQuery != query {
                rewritten = String(text[..<query.startIndex]) + filledQuery + String(text[query.endIndex...])
            }
        }
        if let range = Self.passwordPlaceholder(in: rewritten),
           let schemeEnd = rewritten.range(of: "://"), schemeEnd.upperBound <= range.lowerBound,
           !rewritten[schemeEnd.upperBound..<range.lowerBound].contains("/"),
           let secret = resolve(Placeholder(location: .urlPassword, name: "URL_PASSWORD", secretNames: ["URL_PASSWORD"]), &result) {
            rewritten.replaceSubrange(range, with: ":" + Self.percentEncoded(secret) + "@")
        }
        if rewritten != text, let url = URL(string: rewritten) { result.request.url = url }
    }

    /// Where `:<placeholder>@` (percent-encoded, or a stand-in) sits in a URL's text.
    private static func passwordPlaceholder(in text: String) -> Range<String.Index>? {
        if let range = text.range(of: ":" + Redaction.encodedPlaceholder + "@") { return range }
        guard let start = text.range(of: ":" + StandIn.prefix), let at = text[start.upperBound...].firstIndex(of: "@"),
              StandIn.isStandIn(text[text.index(after: start.lowerBound)..<at]) else { return nil }
        return start.lowerBound..<text.index(after: at)
    }

    /// `name=value` pairs joined by `&` with each placeholder value filled, percent-encoded.
    private func fillPairs(_ text: Substring, location: Placeholder.Location, _ result: inout SecretFill) -> String {
        var changed = false
        let items = text.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, Self.isPlaceholder(URLEncodedForm.decode(pieces[1])),
                  let secret = resolve(placeholder(location, URLEncodedForm.decode(pieces[0])), &result) else { return String(item) }
            changed = true
            return pieces[0] + "=" + Self.percentEncoded(secret)
        }
        return changed ? items.joined(separator: "&") : String(text)
    }

    /// `text` with everything but letters and digits (`CharacterSet.alphanumerics`) percent-encoded, uppercase hex:
    /// the spelling ``SecretFill/masking(_:)`` and redaction's scrubbing look for. ASCII, the common case, is
    /// encoded without Foundation.
    static func percentEncoded(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
        return String(decoding: percentEncodedASCII(text.utf8), as: UTF8.self)
    }

    /// ASCII bytes encoded as ``percentEncoded(_:)`` encodes them: letters and digits stay, every other byte is `%XX`.
    static func percentEncodedASCII(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if byte.isASCIIAlphanumeric {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    // MARK: - Body

    private func fillBody(_ body: Data, _ result: inout SecretFill) {
        var filled: Data?
        if let json = BodyFormat.jsonStyle(of: body) {
            let value = fillJSON(json.value, &result)
            if value != json.value { filled = CassetteJSON.serialize(value, style: json.style) }
        } else if result.request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
                  let text = String(validating: body, as: UTF8.self) {
            let rewritten = fillPairs(text[...], location: .formField, &result)
            if rewritten != text { filled = Data(rewritten.utf8) }
        }
        guard let filled else { return }
        result.request.body = .data(filled)
        if let length = result.request.headers["Content-Length"], Int(length) == body.count {
            result.request.headers["Content-Length"] = String(filled.count)
        }
    }

    private func fillJSON(_ value: CassetteJSON, _ result: inout SecretFill) -> CassetteJSON {
        switch value {
        case .object(let members):
            return .object(members.map { member in
                if case .string(let text) = member.value, Self.isPlaceholder(text) {
                    guard let secret = resolve(placeholder(.jsonMember, member.key), &result) else { return member }
                    return .init(member.key, .string(secret))
                }
                return .init(member.key, fillJSON(member.value, &result))
            })
        case .array(let elements):
            return .array(elements.map { fillJSON($0, &result) })
        default:
            return value
        }
    }
}
