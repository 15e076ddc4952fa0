import Foundation
import TapedeckCore

/// Removes secrets from interactions before anything is written. On by default: `Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie` and API-key/token headers, token-like query parameters and form
/// fields (`token`, `access_token`, `api_key`, `key`, `password`, `secret`, `signature`, …), JSON body members with
/// such names, and the password of a URL's user info. Values become ``placeholder`` (an `Authorization` value keeps
/// its scheme word, e.g. `Bearer [REDACTED]`). A listed name is always redacted; a name that only contains a sensitive
/// word is redacted by its value's meaning (``isBenign(_:name:)``) and the ``allowedNames``, so that
/// `Access-Control-Allow-Credentials: true` or `"max_tokens": 1024` stay as they were, and not at all when it names a
/// place in a sequence: pagination, progress, continuation and sync tokens (`nextPageToken`, `pageToken`,
/// `progressToken`, `continuation_token`, `syncToken`) are handed out by the server to be sent back and grant
/// nothing. List such a name in ``parameterNames`` to redact it anyway.
///
/// Bodies bound for sidecar files (over the sidecar threshold: a download, an export, a stream) are redacted as they
/// arrive, so that no unredacted byte reaches disk, the temporary capture file included, and no body is held whole:
/// sensitive members and JSON-path filters apply to JSON (NDJSON too) as the bytes pass, and copies of known secrets,
/// form fields and regular-expression filters apply line by line (a match cannot span a line break there). A copy of
/// a secret found later in the body is scrubbed from the file when the cassette is finished.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.redaction.headerNames.insert("x-tenant-secret")
/// configuration.redaction.filters.append(.jsonPath("account.iban"))
/// ```
public struct Redaction: Sendable {
    /// What secrets are replaced with.
    public static let placeholder = "[REDACTED]"
    static let encodedPlaceholder = "%5BREDACTED%5D"

    /// Header names (lowercase) always redacted.
    public var headerNames: Set<String> { didSet { compile() } }
    /// Query parameter, form field and JSON member names (lowercase) always redacted.
    public var parameterNames: Set<String> { didSet { compile() } }
    /// Substrings (lowercase) that make any header, parameter or JSON member name secret, e.g. `token`.
    public var sensitiveFragments: [String] { didSet { compile() } }
    /// Extra filters, applied after the built-in rules.
    public var filters: [RedactionFilter]
    /// Whether the built-in rules run (filters always do).
    public var redactsDefaults: Bool
    /// The cassette's salt: with one, each secret becomes its ``StandIn`` and cookies and `Authorization` keep their
    /// structure; without one, the ``placeholder`` replaces the whole value (how cassettes were redacted before).
    var standInSalt: RedactionSalt?
    /// Names (lowercase) that a sensitive fragment alone never makes secret, e.g.
    /// `access-control-allow-credentials`: the allow-list for edge cases (names in ``headerNames`` and
    /// ``parameterNames`` are redacted whatever this says).
    public var allowedNames: Set<String>

    /// Creates a redaction policy; the defaults are on.
    public init(
        headerNames: Set<String> = Redaction.defaultHeaderNames,
        parameterNames: Set<String> = Redaction.defaultParameterNames,
        sensitiveFragments: [String] = Redaction.defaultSensitiveFragments,
        filters: [RedactionFilter] = [],
        redactsDefaults: Bool = true,
        allowedNames: Set<String> = Redaction.defaultAllowedNames
    ) {
        self.allowedNames = allowedNames
        self.headerNames = headerNames
        self.parameterNames = parameterNames
        self.sensitiveFragments = sensitiveFragments
        self.filters = filters
        self.redactsDefaults = redactsDefaults
        compile()
    }

    /// The three name lists compiled for matching: headers, parameters, and JSON members (either kind).
    private var sensitiveHeaders = SensitiveNames(names: [String](), fragments: [])
    var sensitiveParameters = SensitiveNames(names: [String](), fragments: [])
    private var sensitiveMembers = SensitiveNames(names: [String](), fragments: [])

    private mutating func compile() {
        sensitiveHeaders = SensitiveNames(names: headerNames, fragments: sensitiveFragments)
        sensitiveParameters = SensitiveNames(names: parameterNames, fragments: sensitiveFragments)
        sensitiveMembers = SensitiveNames(names: headerNames.union(parameterNames), fragments: sensitiveFragments)
    }

    /// The built-in policy.
    public static let `default` = Redaction()
    /// No built-in rules and no filters: everything is written as it was. Use only for traffic with no secrets.
    public static let disabled = Redaction(filters: [], redactsDefaults: false)

    /// `authorization`, `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`, … (TapedeckCore's
    /// `SensitiveHeaderNames.defaultNames`, which `curlDescription` masks too)
    public static let defaultHeaderNames: Set<String> = SensitiveHeaderNames.defaultNames
    /// `token`, `access_token`, `api_key`, `key`, `password`, `secret`, `signature`, …
    public static let defaultParameterNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "api-key", "key", "password",
        "passwd", "pwd", "secret", "client_secret", "signature", "sig", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token", "auth", "authorization", "session", "sessionid", "code_verifier",
    ]
    /// `token`, `secret`, `password`, `signature`, `api_key`, `apikey`, `api-key`, `credential`
    public static let defaultSensitiveFragments = SensitiveHeaderNames.defaultFragments

    /// Names that hold no secret though they contain a sensitive fragment: CORS headers that name credentials
    /// and headers, rate-limit headers that count tokens, and the WebSocket handshake's nonce.
    public static let defaultAllowedNames: Set<String> = [
        "access-control-allow-credentials", "access-control-allow-headers", "access-control-expose-headers",
        "access-control-request-headers", "x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens",
        "x-ratelimit-reset-tokens", "sec-websocket-key",
    ]

    /// Whether the built-in rules may redact a header named `name`: it is listed, or contains a sensitive fragment
    /// (then ``isSensitiveHeader(_:value:)`` decides by the value).
    public func isSensitiveHeader(_ name: String) -> Bool {
        redactsDefaults && sensitiveHeaders.matches(name)
    }

    /// Whether the built-in rules may redact a query parameter, form field or JSON member named `name`.
    public func isSensitiveParameter(_ name: String) -> Bool {
        redactsDefaults && sensitiveParameters.matches(name)
    }

    /// Whether the built-in rules redact this header: always when its name is listed; when the name only contains a
    /// sensitive fragment (`…credentials`, `…token…`), unless the name is allowed, names a place in a sequence
    /// (`X-Next-Page-Token`) or the value cannot be a secret (see ``isBenign(_:name:)``).
    public func isSensitiveHeader(_ name: String, value: some StringProtocol) -> Bool {
        redactsDefaults && redacts(sensitiveHeaders.match(name), name: name, value: value)
    }

    /// Whether the built-in rules redact this query parameter or form field (the value decoded), by the same rule.
    public func isSensitiveParameter(_ name: String, value: some StringProtocol) -> Bool {
        redactsDefaults && redacts(sensitiveParameters.match(name), name: name, value: value)
    }

    /// Whether the built-in rules redact this JSON member: by the same rule, `null` never; a boolean, or a number
    /// under a count-like name, only when the name is listed.
    func isSensitiveMember(_ name: String, value: CassetteJSON) -> Bool {
        isSensitiveMember(name, value: value, verdict: memberVerdict(name))
    }

    /// ``isSensitiveMember(_:value:)`` with what the name alone decides already known (``memberVerdict(_:)``), for a
    /// caller that meets the same names again and again.
    func isSensitiveMember(_ name: String, value: CassetteJSON, verdict: NameVerdict) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return redacts(verdict, name: name, value: flag ? "true" : "false")
        case .number(let text), .string(let text): return redacts(verdict, name: name, value: text)
        case .array, .object: return verdict == .redact
        }
    }

    /// What the built-in rules decide about a JSON member from its name alone.
    func memberVerdict(_ name: String) -> NameVerdict {
        redactsDefaults ? verdict(sensitiveMembers.match(name), name: name) : .keep
    }

    /// What a name alone decides: kept whatever its value, redacted whatever its value, or redacted unless the value
    /// cannot be a secret (``isBenign(_:name:)``).
    enum NameVerdict: Sendable, Equatable {
        case keep, redact, redactUnlessBenign
    }

    private func verdict(_ match: SensitiveNames.Match, name: String) -> NameVerdict {
        switch match {
        case .none: return .keep
        case .name: return .redact
        case .fragment:
            return allowedNames.contains(name.lowercased()) || SensitiveNames.namesAPosition(name) ? .keep : .redactUnlessBenign
        }
    }

    private func redacts(_ match: SensitiveNames.Match, name: String, value: some StringProtocol) -> Bool {
        redacts(verdict(match, name: name), name: name, value: value)
    }

    private func redacts(_ verdict: NameVerdict, name: String, value: some StringProtocol) -> Bool {
        switch verdict {
        case .keep: return false
        case .redact: return true
        case .redactUnlessBenign: return !Self.isBenign(value, name: name)
        }
    }

    /// Whether a value under a name that only contains a sensitive word cannot be a secret: empty, a boolean or
    /// `null` (`Access-Control-Allow-Credentials: true`), a whole number of at most nine digits under a count-like
    /// name (`max_tokens: 1024`, `tokens_used: 17`), or a short word under a name that asks for a kind
    /// (`token_type: bearer`, `secret_kind: api`). Anything else, a numeric code under any other name included, is
    /// redacted.
    public static func isBenign(_ value: some StringProtocol, name: String) -> Bool {
        if isLongPlainText(value.utf8) { return false }
        let trimmed = value.trimmingCharacters(in: .whitespaces).lowercased()
        if ["", "true", "false", "null", "none", "yes", "no", "on", "off"].contains(trimmed) { return true }
        if isKindName(name), trimmed.count <= 16, trimmed.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == "-" || $0 == "_" }) {
            return true
        }
        guard !trimmed.isEmpty, trimmed.count <= 9, trimmed.utf8.allSatisfy(\.isASCIIDigit) else { return false }
        let lowered = name.lowercased()
        return ["count", "max", "min", "limit", "remaining", "used", "total", "size", "length", "number", "expires", "ttl"]
            .contains { lowered.contains($0) }
    }

    /// Whether `utf8` is over 16 bytes of printable ASCII without spaces (so over 16 characters, none to trim): too
    /// long for any benign value, decided without building a string (most values under a sensitive name are tokens).
    private static func isLongPlainText(_ utf8: some Collection<UInt8>) -> Bool {
        utf8.count > 16 && utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Whether `name` ends in a word that asks for a kind rather than a value: `type`, `kind`, `scheme`, `format`.
    private static func isKindName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["type", "kind", "scheme", "format"].contains { lowered.hasSuffix($0) }
    }

    /// ``isSensitiveMember(_:)`` for a name given as ASCII bytes, as a predicate for ``CompactJSONScanner``. It holds
    /// only the compiled names, not a copy of the whole policy (a method reference would copy every field).
    var sensitiveMemberPredicate: (UnsafeBufferPointer<UInt8>) -> Bool {
        let names = sensitiveMembers
        return redactsDefaults ? { names.matches(bytes: $0) } : { _ in false }
    }

    /// Redacts a request: the same steps whether it is being recorded or matched live. Copies of the secrets it
    /// carries (a bearer token repeated in its URL, say) are scrubbed from its URL, headers and body too.
    public func redact(_ request: inout Interaction.Request) {
        redact(&request, secrets: secretValues(of: request))
    }

    /// Redacts a request, scrubbing copies of `secrets` from its URL, headers and body.
    func redact(_ request: inout Interaction.Request, secrets: some SecretsToScrub) {
        guard redactsDefaults || !filters.isEmpty else { return }
        request.url = redactURL(request.url)
        request.headers = redactHeaders(request.headers)
        request.body = redactBody(request.body, contentType: request.headers["Content-Type"], headers: &request.headers)
        scrub(&request, secrets: secrets)
        for filter in filters {
            if case .request(let transform) = filter.kind { transform(&request) }
        }
    }

    /// Redacts a live request before it is matched against recorded ones: the secrets of the whole request join
    /// `ledger`; then the body and the header fields other than `Content-Type` are dropped unless `keepingBody` and
    /// `keepingHeaders` say a match rule reads them (what nothing compares is not redacted), and what stays is
    /// redacted, with copies of every secret the ledger holds scrubbed. A JSON body with no secret member name (most bodies) is
    /// scanned once, not once to collect secrets and again to redact them.
    func redactLive(_ request: inout Interaction.Request, ledger: inout SecretLedger, keepingBody: Bool, keepingHeaders: Bool) {
        var unmarkedBody: CassetteBody?
        if redactsDefaults, filters.isEmpty, let data = request.body.inlineData, !data.isEmpty,
           CompactJSONScanner.isUnmarked(data, marking: sensitiveMemberPredicate) {
            // Nothing in it to collect or redact; only copies of known secrets are scrubbed, below.
            unmarkedBody = request.body
            request.body = .empty
        }
        _ = ledger.learn(secretValues(of: request))
        if !keepingBody {
            request.body = .empty
            unmarkedBody = nil
        }
        if !keepingHeaders {
            request.headers = HTTPHeaders(request.headers.fields.filter { $0.name.caseInsensitiveEquals("Content-Type") })
        }
        redact(&request, secrets: ledger.index)
        if let unmarkedBody {
            request.body = ledger.isEmpty ? unmarkedBody : scrub(unmarkedBody, secrets: ledger.index, headers: &request.headers)
        }
    }

    /// Redacts a whole interaction on its own: the secrets it carries, wherever a rule finds them, are scrubbed from
    /// all its parts. A cassette's interactions are redacted together by ``redact(_:)-(Cassette)``.
    public func redact(_ interaction: inout Interaction) {
        var ledger = SecretLedger()
        _ = redact(&interaction, ledger: &ledger)
    }

    /// Redacts every interaction of a cassette as if they had been recorded together: a secret found in any of them
    /// (a cookie a response sets, a token in a header, query or JSON member) is scrubbed from all of them, before or
    /// after. Sidecar bodies are not read.
    ///
    /// ```swift
    /// var cassette = try CassetteFile.load(url)
    /// Redaction.default.redact(&cassette)
    /// try CassetteFile.save(cassette, to: url)
    /// ```
    ///
    /// Secrets become ``StandIn``s under the cassette's ``Cassette/redactionSalt``; a cassette without one gets a new
    /// salt when something is redacted (and keeps having none when nothing is).
    public func redact(_ cassette: inout Cassette) {
        var policy = self
        policy.standInSalt = cassette.redactionSalt ?? .random()
        var redacted = cassette
        var ledger = SecretLedger()
        _ = ledger.learn(policy.secrets(in: redacted))
        for index in redacted.interactions.indices { _ = policy.redact(&redacted.interactions[index], ledger: &ledger) }
        guard redacted.interactions != cassette.interactions else { return }
        redacted.redactionSalt = policy.standInSalt
        cassette = redacted
    }

    /// This policy with the stand-ins of `salt` (the cassette's), or with placeholders when it is `nil`.
    func standingIn(_ salt: RedactionSalt?) -> Redaction {
        var policy = self
        policy.standInSalt = salt
        return policy
    }

    /// The secrets the built-in rules find in a cassette's interactions (where a rule redacts them), longest first:
    /// what ``redact(_:)-(Cassette)`` scrubs copies of, for bodies it does not read (sidecar files).
    public func secrets(in cassette: Cassette) -> [String] {
        var ledger = SecretLedger()
        for interaction in cassette.interactions { _ = ledger.learn(secretValues(of: interaction)) }
        return ledger.secrets
    }

    /// A body's bytes as recording writes them to a sidecar file: sensitive JSON members and form fields redacted,
    /// regular-expression filters applied, and copies of `secrets` scrubbed.
    public func redactBody(_ data: Data, contentType: String?, scrubbing secrets: [String]) -> Data {
        scrubBytes(redactBodyBytes(data, contentType: contentType), secrets: secrets)
    }

    /// Redacts `interaction` on its own and returns the secrets it carries, for a recorder that adds them to its
    /// ledger and scrubs the ledger's other secrets with ``scrubCopies(in:of:)`` under its lock, so that the costly
    /// part (parsing bodies) runs outside it.
    func redactReturningSecrets(_ interaction: inout Interaction) -> [String] {
        let secrets = secretValues(of: interaction)
        redact(&interaction.request, secrets: secrets)
        redactOutcome(&interaction, secrets: secrets)
        return secrets
    }

    /// Redacts `interaction` as one of a cassette's: the secrets it carries join `ledger`, and copies of every secret
    /// the ledger holds are scrubbed from all its parts. Returns the secrets that were new to the ledger: interactions
    /// stored before must be scrubbed of them too (``scrubCopies(in:of:)``).
    func redact(_ interaction: inout Interaction, ledger: inout SecretLedger) -> [String] {
        let learned = ledger.learn(secretValues(of: interaction))
        redact(&interaction.request, secrets: ledger.index)
        redactOutcome(&interaction, secrets: ledger.index)
        return learned
    }

    /// Redacts the response or error of an interaction, then runs the interaction filters.
    private func redactOutcome(_ interaction: inout Interaction, secrets: some SecretsToScrub) {
        guard redactsDefaults || !filters.isEmpty else { return }
        switch interaction.outcome {
        case .response(var response):
            response.headers = redactHeaders(response.headers)
            if let url = response.url { response.url = redactURL(url) }
            let recorded = response.body
            response.body = redactBody(response.body, contentType: response.headers["Content-Type"], headers: &response.headers)
            response.recutChunks(after: recorded)
            interaction.outcome = .response(response)
        case .failure(var failure):
            failure.message = applyRegexes(failure.message)
            failure.transportMessage = failure.transportMessage.map(applyRegexes)
            interaction.outcome = .failure(failure)
        }
        if let webSocket = interaction.webSocket { interaction.webSocket = redactWebSocket(webSocket) }
        scrubOutcome(&interaction, secrets: secrets)
        var unfiltered: CassetteBody?
        for filter in filters {
            if case .interaction(let transform) = filter.kind {
                unfiltered = unfiltered ?? interaction.response?.body
                transform(&interaction)
            }
        }
        if let unfiltered, case .response(var response) = interaction.outcome {
            response.recutChunks(after: unfiltered)
            interaction.outcome = .response(response)
        }
    }

    // MARK: - Pieces

    func redactHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        var fields = headers.fields
        var changed = false
        for index in fields.indices {
            let name = fields[index].name
            var value = fields[index].value
            if isSensitiveHeader(name, value: value) { value = placeholderKeepingScheme(value, header: name) }
            for filter in filters {
                switch filter.kind {
                case .header(let target, let replacement) where target.lowercased() == name.lowercased(): value = replacement
                case .regex(let regex, let replacement): value = regex.replace(in: value, with: replacement)
                default: break
                }
            }
            if value != fields[index].value {
                fields[index].value = value
                changed = true
            }
        }
        return changed ? HTTPHeaders(fields) : headers
    }

    private func placeholderKeepingScheme(_ value: String, header: String) -> String {
        let lower = header.lowercased()
        if lower == "authorization" || lower == "proxy-authorization", let space = value.firstIndex(of: " ") {
            let token = value[value.index(after: space)...]
            return value[..<space] + " " + (replacement(for: token) ?? String(token))
        }
        guard standInSalt != nil else { return Redaction.placeholder }
        switch lower {
        case "cookie": return Self.replacingCookieValues(value, pairs: value.startIndex..<value.endIndex) { replacement(for: $0) ?? String($0) }
        case "set-cookie":
            let end = value.firstIndex(of: ";") ?? value.endIndex
            return Self.replacingCookieValues(value, pairs: value.startIndex..<end) { replacement(for: $0) ?? String($0) }
        default: return replacement(for: value) ?? value
        }
    }

    /// What a secret value is replaced with: its ``StandIn`` when the cassette has a salt, else the
    /// ``placeholder`` (`encoded` for a URL); `nil` for a value that is a redaction already, which stays as written.
    func replacement(for secret: some StringProtocol, encoded: Bool = false) -> String? {
        if Self.isRedacted(secret) { return nil }
        if let standInSalt { return StandIn.make(for: secret, salt: standInSalt) }
        return encoded ? Redaction.encodedPlaceholder : Redaction.placeholder
    }

    /// Whether `value` is a redaction already: the ``placeholder`` (as written or percent-encoded), a value ending in
    /// it (`Bearer [REDACTED]`), or a ``StandIn``.
    public static func isRedacted(_ value: some StringProtocol) -> Bool {
        value.hasSuffix(placeholder) || value.hasSuffix(encodedPlaceholder) || StandIn.isStandIn(value)
    }

    /// `value` with the value of each `name=value` pair in `pairs` (separated by `;`) replaced, everything else
    /// (names, spacing, the attributes after them) as written.
    static func replacingCookieValues(_ value: String, pairs: Range<String.Index>, replace: (Substring) -> String) -> String {
        var result = String(value[..<pairs.lowerBound])
        var first = true
        for pair in value[pairs].split(separator: ";", omittingEmptySubsequences: false) {
            if !first { result += ";" }
            first = false
            guard let equals = pair.firstIndex(of: "=") else {
                result += pair
                continue
            }
            let cookieValue = pair[pair.index(after: equals)...]
            let trimmed = cookieValue.trimmingCharacters(in: .whitespaces)
            result += pair[...equals]
            result += trimmed.isEmpty ? String(cookieValue) : replace(trimmed[...])
        }
        return result + value[pairs.upperBound...]
    }

    /// Whether `text` holds the ASCII character `byte` (a quick test before parsing a URL).
    static func contains(_ text: String, byte: Unicode.Scalar) -> Bool {
        let target = UInt8(ascii: byte)
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(target) } ?? text.utf8.contains(target)
    }

    func redactURL(_ url: String) -> String {
        var result = url
        if redactsDefaults || filters.contains(where: {
            switch $0.kind { case .queryParameter, .jsonPath: true; default: false }
        }) {
            if queryMayNeedRedaction(url), let query = URLParts(url).query, !query.isEmpty {
                let rewritten = redactPairs(String(query))
                if rewritten != query {
                    result = String(url[..<query.startIndex]) + rewritten + String(url[query.endIndex...])
                }
            }
            if redactsDefaults, Self.contains(result, byte: "@"), let schemeEnd = result.range(of: "://") {
                let authorityEnd = result[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? result.endIndex
                let authority = result[schemeEnd.upperBound..<authorityEnd]
                if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                    let password = authority[authority.index(after: colon)..<at]
                    let decoded = password.removingPercentEncoding ?? String(password)
                    let redacted = replacement(for: decoded, encoded: true) ?? String(password)
                    result = String(result[..<authority.index(after: colon)]) + redacted + String(result[at...])
                }
            }
        }
        for filter in filters {
            if case .regex(let regex, let replacement) = filter.kind { result = regex.replace(in: result, with: replacement) }
        }
        return result
    }

    /// Redacts `name=value` pairs joined by `&` (a query or a form body), keeping everything else as written.
    func redactPairs(_ text: String) -> String {
        var changed = false
        let items = text.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2 else { return item }
            let name = URLEncodedForm.decode(pieces[0])
            var replacement: String?
            let value = URLEncodedForm.decode(pieces[1])
            if isSensitiveParameter(name, value: value), let redacted = self.replacement(for: value, encoded: true) { replacement = redacted }
            else if name == "variables" || name == "extensions" { replacement = redactedJSONParameter(value, name: name) }
            for filter in filters {
                if case .queryParameter(let target, let value) = filter.kind, target == name {
                    replacement = PlaceholderSecrets.percentEncoded(value)
                }
            }
            guard let replacement, pieces[1] != replacement else { return item }
            changed = true
            return pieces[0] + "=" + replacement
        }
        return changed ? items.joined(separator: "&") : text
    }

    /// A GraphQL GET's `variables` or `extensions` parameter (JSON text) with its members redacted by the same rules
    /// as a JSON body's, at the same paths (`variables.password`), percent-encoded; `nil` when nothing changes.
    private func redactedJSONParameter(_ value: String, name: String) -> String? {
        guard value.hasPrefix("{"), let json = CassetteJSON.parseBody(Data(value.utf8)) else { return nil }
        let path: String? = filters.contains(where: { if case .jsonPath = $0.kind { true } else { false } }) ? name : nil
        guard needsJSONRedaction(json, path: path) else { return nil }
        let text = String(decoding: CassetteJSON.serialize(redactJSON(json, path: path)), as: UTF8.self)
        return text.addingPercentEncoding(withAllowedCharacters: Self.uriComponentCharacters) ?? text
    }

    /// What JavaScript's `encodeURIComponent` leaves as it is, as GraphQL clients encode their GET parameters.
    private static let uriComponentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")

    func applyRegexes(_ text: String) -> String {
        var result = text
        for filter in filters {
            if case .regex(let regex, let replacement) = filter.kind { result = regex.replace(in: result, with: replacement) }
        }
        return result
    }
}
