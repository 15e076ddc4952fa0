import Foundation
import TapedeckCore
#if canImport(Glibc)
import Glibc
#endif

extension Redaction {
    /// Secrets shorter than this are redacted where a rule finds them, but their copies elsewhere are not searched
    /// for: a short value (`dark`, `en-US`, `1234`) would match unrelated text.
    public static let minimumCopiedSecretLength = 8

    /// The shortest secret supplied for a placeholder (``PlaceholderSecrets``) whose copies are scrubbed and masked.
    public static let minimumKnownSecretLength = 4

    /// The literal secret values an interaction carries in the places the built-in rules redact: the request's
    /// (``secretValues(of:responseHeaders:)``) and the response's (the cookies it sets, sensitive headers, and
    /// sensitive members and fields of an inline JSON or form body), so that their copies anywhere in a cassette can
    /// be scrubbed. Secrets in sidecar bodies are redacted where they are but are not collected.
    func secretValues(of interaction: Interaction) -> [String] {
        guard redactsDefaults else { return [] }
        var values = secretValues(of: interaction.request, responseHeaders: interaction.response?.headers)
        func add(_ value: some StringProtocol) { Self.addSecret(value, to: &values) }
        for text in Self.textPayloads(of: interaction.webSocket) { collectBodySecrets(Data(text.utf8), contentType: nil, add: add) }
        guard let response = interaction.response else { return Self.ordered(values) }
        for field in response.headers where field.name.lowercased() != "set-cookie" && isSensitiveHeader(field.name, value: field.value) {
            addHeaderSecret(field, add: add)
        }
        collectBodySecrets(response.body, contentType: response.headers["Content-Type"], add: add)
        return Self.ordered(values)
    }

    /// The literal secret values a request carries in the places the built-in rules redact (header values, the
    /// token of an `Authorization` header, cookie values, sensitive query parameters, form fields and JSON members),
    /// so that copies of them elsewhere (a server echoing the request, a URL inside a body) can be scrubbed too.
    func secretValues(of request: Interaction.Request, responseHeaders: HTTPHeaders? = nil) -> [String] {
        guard redactsDefaults else { return [] }
        var values: [String] = []
        func add(_ value: some StringProtocol) { Self.addSecret(value, to: &values) }
        for field in request.headers where isSensitiveHeader(field.name, value: field.value) {
            // A cookie header's secrets are its values: the whole `name=value` text is no secret, and scrubbing it
            // would take the same text out of a URL that set the cookie (`/cookies/set?flavour=oatmeal`).
            if field.name.lowercased() == "cookie" {
                Self.addCookieValues(field.value, to: &values)
            } else {
                addHeaderSecret(field, add: add)
            }
        }
        if queryMayNeedRedaction(request.url) {
            for pair in URLParts(request.url).decodedQueryPairs where isSensitiveParameter(pair.name, value: pair.value) { add(pair.value) }
        }
        collectBodySecrets(request.body, contentType: request.headers["Content-Type"], add: add)
        values += cookieSecrets(in: responseHeaders)
        return values.isEmpty ? [] : Self.ordered(values)
    }

    /// A sensitive header's value, and the token after its scheme word (`Bearer <token>`).
    private func addHeaderSecret(_ field: HTTPHeaders.Field, add: (Substring) -> Void) {
        add(field.value[...])
        if let space = field.value.firstIndex(of: " ") { add(field.value[field.value.index(after: space)...]) }
    }

    /// The values of sensitive members (JSON) or fields (a form) of a body's bytes (a sidecar file's, say), so that
    /// their copies elsewhere in the cassette can be scrubbed.
    func secretValues(ofBody data: Data, contentType: String?) -> [String] {
        guard redactsDefaults else { return [] }
        var values: [String] = []
        collectBodySecrets(data, contentType: contentType) { Self.addSecret($0, to: &values) }
        return Self.ordered(values)
    }

    /// The values of sensitive members (JSON) or fields (a form) of an inline body.
    private func collectBodySecrets(_ body: CassetteBody, contentType: String?, add: (Substring) -> Void) {
        guard let data = body.inlineData else { return }
        collectBodySecrets(data, contentType: contentType, add: add)
    }

    private func collectBodySecrets(_ data: Data, contentType: String?, add: (Substring) -> Void) {
        guard !data.isEmpty else { return }
        if CompactJSONScanner.isUnmarked(data, marking: sensitiveMemberPredicate) {
            // JSON with no secret member name (checked in place, in any spelling): no secret to collect from it.
        } else if let json = CassetteJSON.parseBody(data) {
            collectJSONSecrets(json, add: { add($0[...]) })
        } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            for pair in URLEncodedForm.pairs(data) where isSensitiveParameter(pair.name, value: pair.value) { add(pair.value[...]) }
        }
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
        Array(Set(values)).sorted(by: comesFirst)
    }

    /// The order of ``ordered(_:)``: more bytes first (a secret that contains another is longer), then by text. Byte
    /// counts, not `Character` counts, which cost a walk over the text on every comparison.
    static func comesFirst(_ a: String, _ b: String) -> Bool {
        let (aLength, bLength) = (a.utf8.count, b.utf8.count)
        return aLength != bLength ? aLength > bLength : a < b
    }

    /// Adds `value`, trimmed, to `values` when it is long enough to search for and is not a placeholder. A value
    /// guessed to be a secret from where it appears must have ``minimumCopiedSecretLength`` bytes (shorter ones would
    /// match ordinary text); a secret known for sure (a value filled into a placeholder) needs
    /// ``minimumKnownSecretLength``.
    static func addSecret(_ value: some StringProtocol, to values: inout [String], minimumLength: Int = minimumCopiedSecretLength) {
        let trimmed = trimmingSpaces(value)
        // A value holding a stand-in or a placeholder (`sid=REDACTED-…`, `Bearer [REDACTED]`) was redacted already:
        // the secrets it held, if any, are collected on their own.
        guard trimmed.utf8.count >= minimumLength, !StandIn.mayContain(trimmed), !contains(trimmed, Redaction.placeholder),
              !contains(trimmed, Redaction.encodedPlaceholder) else { return }
        values.append(trimmed)
    }

    /// `value` without the spaces and tabs at its ends (what `trimmingCharacters(in: .whitespaces)` removes: tab and
    /// the Unicode space separators), with no Foundation call: secrets are collected on every replayed request.
    private static func trimmingSpaces(_ value: some StringProtocol) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let text = String(value)
        // Most values start and end with an ASCII byte that is no space: nothing to trim, no scalar to look up.
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// Whether `needle` occurs in `text`, byte for byte (no Foundation call).
    private static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { occurs($0, in: haystack) } }
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
    /// Text that holds none of them (the common case, checked without allocating) is returned as it is.
    func scrub(_ text: String, secrets: some SecretsToScrub, placeholder: String = Redaction.placeholder) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets.candidates(in: text) where Self.mayHoldCopy(result, of: secret) {
            let standIn = standInSalt.map { StandIn.make(for: secret, salt: $0) }
            result = result.replacingOccurrences(of: secret, with: standIn ?? placeholder)
            if secret.contains("/") { result = result.replacingOccurrences(of: secret.replacingOccurrences(of: "/", with: "\\/"), with: standIn ?? placeholder) }
            let encoded = PlaceholderSecrets.percentEncoded(secret)
            if encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: standIn ?? Redaction.encodedPlaceholder)
            }
        }
        return result
    }

    /// Up to this many secrets, or in a text of up to ``textScannedPerSecret`` bytes, ``scrub(_:secrets:placeholder:)``
    /// looks for each secret on its own; more secrets in a longer text are found in one scan (``SecretOccurrences``),
    /// which costs an index of them first.
    static let secretsCheckedOneByOne = 16
    static let textScannedPerSecret = 4096

    /// Whether `text` may hold a copy of `secret` in one of the spellings ``scrub(_:secrets:placeholder:)`` replaces:
    /// the bytes of the secret's first run of letters and digits (which every spelling keeps) occur in it.
    static func mayHoldCopy(_ text: String, of secret: String) -> Bool {
        let core = secret.utf8.drop { !$0.isASCIIAlphanumeric }.prefix(while: \.isASCIIAlphanumeric)
        guard !core.isEmpty else { return true }
        return text.utf8.withContiguousStorageIfAvailable { haystack in
            Array(core).withUnsafeBufferPointer { occurs($0, in: haystack) }
        } ?? text.contains(String(decoding: core, as: UTF8.self))
    }

    /// Whether `needle` occurs in `haystack`: `memchr` finds each candidate first byte, `memcmp` checks the rest.
    static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, let needleBase = needle.baseAddress else { return true }
        guard needle.count <= haystack.count, let base = haystack.baseAddress else { return false }
        let lastStart = haystack.count - needle.count
        var start = 0
        while start <= lastStart {
            guard let found = memchr(base + start, Int32(first), lastStart - start + 1) else { return false }
            let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, needleBase, needle.count) == 0 { return true }
            start = offset + 1
        }
        return false
    }

    /// A body with copies of `secrets` scrubbed, when it is text.
    func scrub(_ body: CassetteBody, secrets: some SecretsToScrub, headers: inout HTTPHeaders) -> CassetteBody {
        guard !secrets.isEmpty, let data = body.inlineData, !data.isEmpty else { return body }
        let scrubbed = scrubBytes(data, secrets: secrets)
        guard scrubbed != data else { return body }
        if let length = headers["Content-Length"], Int(length) == data.count, body.contentEncoding == nil {
            headers["Content-Length"] = String(scrubbed.count)
        }
        return CassetteBody(scrubbed, contentEncoding: body.contentEncoding)
    }

    /// Body bytes with copies of `secrets` scrubbed, when they are UTF-8 text (inline bodies, and sidecar bodies before
    /// they are written).
    func scrubBytes(_ data: Data, secrets: some SecretsToScrub) -> Data {
        guard !secrets.isEmpty, let text = String(validating: data, as: UTF8.self) else { return data }
        let scrubbed = scrub(text, secrets: secrets)
        return scrubbed == text ? data : Data(scrubbed.utf8)
    }

    /// An interaction with every copy of `secrets` scrubbed (URLs, headers, bodies, error messages), whatever the
    /// policy: for secrets put into a request on its way out (``PlaceholderSecrets``), which must never be written.
    func scrub(_ interaction: inout Interaction, secrets: some SecretsToScrub) {
        scrub(&interaction.request, secrets: secrets)
        scrubOutcome(&interaction, secrets: secrets)
    }

    /// Header values with copies of `secrets` scrubbed.
    func scrub(_ headers: HTTPHeaders, secrets: some SecretsToScrub) -> HTTPHeaders {
        guard !secrets.isEmpty else { return headers }
        var fields = headers.fields
        var changed = false
        for index in fields.indices {
            let value = scrub(fields[index].value, secrets: secrets)
            if value != fields[index].value {
                fields[index].value = value
                changed = true
            }
        }
        return changed ? HTTPHeaders(fields) : headers
    }

    /// Scrubs copies of `secrets` from every part of a request: its URL (path, query and fragment), header values and
    /// inline body.
    func scrub(_ request: inout Interaction.Request, secrets: some SecretsToScrub) {
        guard !secrets.isEmpty else { return }
        request.url = scrub(request.url, secrets: secrets, placeholder: Redaction.encodedPlaceholder)
        request.headers = scrub(request.headers, secrets: secrets)
        request.body = scrub(request.body, secrets: secrets, headers: &request.headers)
    }

    /// Scrubs copies of `secrets` from every part of an interaction held in memory (URLs, header values, inline
    /// bodies, error messages): used on interactions stored before the secrets were learned. Returns whether
    /// anything changed.
    func scrubCopies(in interaction: inout Interaction, of secrets: some SecretsToScrub) -> Bool {
        guard !secrets.isEmpty else { return false }
        let before = interaction
        scrub(&interaction, secrets: secrets)
        return interaction != before
    }

    /// Scrubs copies of `secrets` from a response's URL, header values and inline body, or from an error's messages.
    func scrubOutcome(_ interaction: inout Interaction, secrets: some SecretsToScrub) {
        guard !secrets.isEmpty else { return }
        switch interaction.outcome {
        case .response(var response):
            response.headers = scrub(response.headers, secrets: secrets)
            if let url = response.url { response.url = scrub(url, secrets: secrets, placeholder: Redaction.encodedPlaceholder) }
            let recorded = response.body
            response.body = scrub(response.body, secrets: secrets, headers: &response.headers)
            response.recutChunks(after: recorded)
            interaction.outcome = .response(response)
        case .failure(var failure):
            failure.message = scrub(failure.message, secrets: secrets)
            failure.transportMessage = failure.transportMessage.map { scrub($0, secrets: secrets) }
            interaction.outcome = .failure(failure)
        }
        if let webSocket = interaction.webSocket { interaction.webSocket = scrubWebSocket(webSocket, secrets: secrets) }
    }
}
