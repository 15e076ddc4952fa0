import Foundation
import TapedeckCassette

/// Looks for secrets that escaped redaction: every value the redaction rules would change (`RedactionPreview`),
/// and high-entropy tokens (``Entropy``) anywhere in URLs, header values and text bodies.
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

    /// A scalar JSON member's value as text (a boolean as `true`/`false`), or `nil` for `null` and containers.
    static func memberText(_ value: CassetteJSON) -> String? {
        switch value {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// Whether a value is already redacted.
    public static func isPlaceholder(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || Redaction.isRedacted(trimmed)
    }

    /// The first and last two characters of a secret, e.g. `sk…dc (32 chars)`.
    public static func masked(_ value: String) -> String {
        value.count <= 8 ? "\(value.count) chars" : "\(value.prefix(2))…\(value.suffix(2)) (\(value.count) chars)"
    }

    /// The hits in one interaction on its own; `body` reads its bodies.
    public func scan(_ interaction: Interaction, at base: String, body: (CassetteBody) -> Data) -> [Hit] {
        scan(Cassette(interactions: [interaction]), base: { _ in base }, body: body).first ?? []
    }

    /// The hits in each interaction of a cassette: every value the redaction rules would change (`RedactionPreview`:
    /// values under secret names, and copies of a secret found anywhere in the cassette), then high-entropy tokens in
    /// URLs, header values and text bodies that are not among those values.
    public func scan(_ cassette: Cassette, base: (Int) -> String = { "interactions[\($0)]" }, body: (CassetteBody) -> Data) -> [[Hit]] {
        var hits = Array(repeating: [Hit](), count: cassette.interactions.count)
        var exempt = Array(repeating: Set<String>(), count: cassette.interactions.count)
        var reportedPlaces = Set<String>()
        for change in RedactionPreview.changes(in: cassette, redaction: redaction, base: base, body: body) {
            hits[change.index].append(Hit(rule: .secret, place: change.place, message: change.message))
            exempt[change.index].insert(change.original)
            reportedPlaces.insert(change.place)
        }
        for (index, interaction) in cassette.interactions.enumerated() {
            let base = base(index)
            let request = interaction.request
            scanEntropy(request.url, place: "\(base).request.url", exempt: exempt[index], hits: &hits[index])
            scanHeaders(request.headers, place: "\(base).request.headers", skipping: reportedPlaces, hits: &hits[index])
            scanBody(body(request.body), place: "\(base).request.body", exempt: exempt[index], hits: &hits[index])
            if let response = interaction.response {
                scanHeaders(response.headers, place: "\(base).response.headers", skipping: reportedPlaces, hits: &hits[index])
                scanBody(body(response.body), place: "\(base).response.body", exempt: exempt[index], hits: &hits[index])
            }
        }
        return hits
    }

    /// High-entropy tokens in `text` other than the values already reported (a token inside one of them included).
    private func scanEntropy(_ text: String, place: String, exempt: Set<String>, hits: inout [Hit]) {
        for token in Entropy.suspiciousTokens(in: text) where !exempt.contains(where: { $0.contains(token) }) {
            hits.append(Hit(rule: .entropy, place: place, message: "high-entropy token \(Self.masked(token))"))
        }
    }

    private func scanHeaders(_ headers: HTTPHeaders, place: String, skipping reported: Set<String>, hits: inout [Hit]) {
        for field in headers {
            let place = "\(place).\(field.name)"
            guard !reported.contains(place), !entropyExemptHeaders.contains(field.name.lowercased()),
                  !redaction.isSensitiveHeader(field.name, value: field.value) else { continue }
            scanEntropy(field.value, place: place, exempt: [], hits: &hits)
        }
    }

    private func scanBody(_ data: Data, place: String, exempt: Set<String>, hits: inout [Hit]) {
        guard !data.isEmpty, data.count <= 4 << 20, let text = String(validating: data, as: UTF8.self) else { return }
        scanEntropy(text, place: place, exempt: exempt, hits: &hits)
    }
}
