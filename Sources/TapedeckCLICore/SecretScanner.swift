import Foundation
import TapedeckCassette

/// Looks for secrets that escaped redaction in one interaction: values under the names ``Redaction`` treats as
/// secret (headers, query parameters, form fields, JSON members) that are not the placeholder, and high-entropy
/// tokens (``Entropy``) anywhere in URLs, header values and text bodies.
public struct SecretScanner: Sendable {
    /// The names policy (the built-in one by default).
    public var redaction: Redaction
    /// Headers whose values are random by nature and not secrets (entity tags, request and trace IDs).
    public var entropyExemptHeaders: Set<String>

    /// Creates a scanner.
    public init(redaction: Redaction = .default,
                entropyExemptHeaders: Set<String> = ["etag", "digest", "content-md5", "x-request-id", "traceparent", "tracestate",
                                                     "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2", "x-trace-id", "cf-ray",
                                                     "content-security-policy", "if-none-match", "sec-websocket-key", "sec-websocket-accept"]) {
        self.redaction = redaction
        self.entropyExemptHeaders = entropyExemptHeaders
    }

    /// A secret found: where, and what.
    public struct Hit: Sendable, Hashable {
        /// Rule that fired.
        public var rule: LintFinding.Rule
        /// Where, e.g. `interactions[0].request.headers.Authorization`.
        public var place: String
        /// What was found (the value is shortened so reports do not leak it whole).
        public var message: String
    }

    /// Whether a value is already redacted.
    /// A scalar JSON member's value as text (a boolean as `true`/`false`), or `nil` for `null` and containers.
    static func memberText(_ value: CassetteJSON) -> String? {
        switch value {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    public static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasSuffix(Redaction.placeholder) || trimmed.hasSuffix("%5BREDACTED%5D")
    }

    /// The first and last two characters of a secret, e.g. `sk…dc (32 chars)`.
    public static func masked(_ value: String) -> String {
        value.count <= 8 ? "\(value.count) chars" : "\(value.prefix(2))…\(value.suffix(2)) (\(value.count) chars)"
    }

    /// The hits in one interaction; `body` reads its bodies.
    public func scan(_ interaction: Interaction, at base: String, body: (CassetteBody) -> Data) -> [Hit] {
        var hits: [Hit] = []
        let request = interaction.request
        hits += scanURL(request.url, place: "\(base).request.url")
        hits += scanHeaders(request.headers, place: "\(base).request.headers")
        hits += scanBody(body(request.body), contentType: request.headers["Content-Type"], place: "\(base).request.body")
        if let response = interaction.response {
            hits += scanHeaders(response.headers, place: "\(base).response.headers")
            hits += scanBody(body(response.body), contentType: response.headers["Content-Type"], place: "\(base).response.body")
        }
        return hits
    }

    func scanURL(_ url: String, place: String) -> [Hit] {
        var hits: [Hit] = []
        var exempt: Set<String> = []
        if let items = URLComponents(string: url)?.queryItems {
            scanPairs(items, label: "query", noun: "query parameter", place: place, hits: &hits, exempt: &exempt)
        }
        scanEntropy(url, place: place, exempt: exempt, hits: &hits)
        return hits
    }

    /// Sensitive `name=value` pairs (a query or a form body) whose values are not placeholders; their values are
    /// exempt from the entropy scan, which would report them a second time.
    private func scanPairs(_ items: [URLQueryItem], label: String, noun: String, place: String,
                           hits: inout [Hit], exempt: inout Set<String>) {
        for item in items {
            guard let value = item.value, redaction.isSensitiveParameter(item.name, value: value) else { continue }
            exempt.insert(value)
            if !Self.isPlaceholder(value) {
                hits.append(Hit(rule: .secret, place: "\(place) \(label) \(item.name)", message: "\(noun) \(item.name) is not redacted: \(Self.masked(value))"))
            }
        }
    }

    private func scanEntropy(_ text: String, place: String, exempt: Set<String>, hits: inout [Hit]) {
        for token in Entropy.suspiciousTokens(in: text) where !exempt.contains(token) {
            hits.append(Hit(rule: .entropy, place: place, message: "high-entropy token \(Self.masked(token))"))
        }
    }

    func scanHeaders(_ headers: HTTPHeaders, place: String) -> [Hit] {
        var hits: [Hit] = []
        for field in headers {
            let where_ = "\(place).\(field.name)"
            if redaction.isSensitiveHeader(field.name, value: field.value) {
                if !Self.isPlaceholder(field.value) {
                    hits.append(Hit(rule: .secret, place: where_, message: "header \(field.name) is not redacted: \(Self.masked(field.value))"))
                }
                continue
            }
            guard !entropyExemptHeaders.contains(field.name.lowercased()) else { continue }
            for token in Entropy.suspiciousTokens(in: field.value) {
                hits.append(Hit(rule: .entropy, place: where_, message: "high-entropy token \(Self.masked(token))"))
            }
        }
        return hits
    }

    func scanBody(_ data: Data, contentType: String?, place: String) -> [Hit] {
        guard !data.isEmpty, data.count <= 4 << 20, let text = String(validating: data, as: UTF8.self) else { return [] }
        var hits: [Hit] = []
        var exempt: Set<String> = []
        if let json = CassetteJSON.parseBody(data) {
            scanJSON(json, path: "", place: place, hits: &hits, exempt: &exempt)
        } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
                  let items = URLComponents(string: "?" + text)?.queryItems {
            scanPairs(items, label: "field", noun: "form field", place: place, hits: &hits, exempt: &exempt)
        }
        scanEntropy(text, place: place, exempt: exempt, hits: &hits)
        return hits
    }

    private func scanJSON(_ value: CassetteJSON, path: String, place: String, hits: inout [Hit], exempt: inout Set<String>) {
        switch value {
        case .object(let members):
            for member in members {
                let child = path.isEmpty ? member.key : "\(path).\(member.key)"
                let isContainer = member.value.objectValue != nil || member.value.arrayValue != nil
                if !isContainer, Self.memberText(member.value).map({ redaction.isSensitiveParameter(member.key, value: $0) || redaction.isSensitiveHeader(member.key, value: $0) }) == true {
                    let text: String? = member.value.stringValue ?? { if case .number(let n) = member.value { n } else { nil } }()
                    if let text {
                        exempt.insert(text)
                        if !Self.isPlaceholder(text) {
                            hits.append(Hit(rule: .secret, place: "\(place).\(child)", message: "JSON member \(member.key) is not redacted: \(Self.masked(text))"))
                        }
                    }
                } else {
                    scanJSON(member.value, path: child, place: place, hits: &hits, exempt: &exempt)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                scanJSON(element, path: path.isEmpty ? "\(index)" : "\(path).\(index)", place: place, hits: &hits, exempt: &exempt)
            }
        default:
            break
        }
    }
}
