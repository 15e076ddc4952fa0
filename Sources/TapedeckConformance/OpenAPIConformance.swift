import Foundation
import OpenAPIKit
import TapedeckCassette
import TapedeckCore

/// Checks recorded interactions against a provider's OpenAPI document (3.0 or 3.1, JSON or YAML): the engine of
/// `tapedeck verify --openapi SPEC CASSETTE…`, for tests that assert a cassette still honours the contract.
///
/// For each interaction it finds the operation (path template under a server's base path, then method) and checks
/// path, query, header and cookie parameters (presence of required ones, values against their schemas), the request
/// body (required, documented media type, JSON against its schema), that the status is documented (exactly, by
/// range such as `4XX`, or `default`), required response headers, and the response body. Each violation names the
/// place, the JSON pointer inside a body and the rule broken. The document is read once and its schemas compiled, so
/// checking is cheap enough to run on every recording.
///
/// ```swift
/// let contract = try OpenAPIConformance(contentsOf: URL(fileURLWithPath: "openapi.yaml"))
/// let report = try contract.check(cassetteAt: URL(fileURLWithPath: "Cassettes/pets.json"))
/// for failure in report where !failure.conforms {
///     print("#\(failure.index) \(failure.summary):", failure.violations.map(\.description))
/// }
/// ```
public struct OpenAPIConformance: Sendable {
    let operations: [OperationRules]
    let program: SchemaProgram
    /// What schemas' `$ref`s point into.
    let schemaRoot: JSONValue
    /// Server base paths (`/v1`), longest first.
    let basePaths: [String]

    /// Reads and compiles the document in `url`.
    ///
    /// - Throws: ``OpenAPIDocumentError`` naming the file and what is wrong (not OpenAPI, an unsupported version,
    ///   a decoding error with its place, a `$ref` to nothing, an invalid schema).
    public init(contentsOf url: URL) throws(OpenAPIDocumentError) {
        let data: Data
        do { data = try InputFile.read(url) } catch {
            throw OpenAPIDocumentError(source: url.path, reason: error.reason)
        }
        try self.init(document: data, source: url.path)
    }

    /// Reads and compiles a document held in memory; `source` names it in errors.
    public init(document data: Data, source: String = "OpenAPI document") throws(OpenAPIDocumentError) {
        let document = try OpenAPIDocumentReader.read(data, source: source)
        var builder = try OperationRulesBuilder(document: document, source: source)
        (operations, program) = try builder.build()
        schemaRoot = builder.schemaRoot
        basePaths = Self.basePaths(of: document)
    }

    /// How many operations the document has.
    public var operationCount: Int { operations.count }

    /// The operation `interaction` matched (or `nil`) and every way it breaks the document.
    ///
    /// - Parameters:
    ///   - interaction: the recorded request and response to check.
    ///   - bodyData: the bytes of a body; the default reads inline bodies only (see ``check(cassetteAt:)`` for
    ///     bodies kept in sidecar files).
    public func check(
        _ interaction: Interaction, bodyData: (CassetteBody) -> Data = { $0.inlineData ?? Data() }
    ) -> (operation: String?, violations: [ConformanceViolation]) {
        withoutActuallyEscaping(bodyData) { bodyData in
            var check = InteractionCheck(program: program, bodyData: bodyData)
            switch lookUp(interaction.request) {
            case .found(let operation, let pathValues):
                check.run(interaction, operation: operation, pathValues: pathValues)
                return (operation.label, check.violations)
            case let missing:
                return (nil, missing.violation.map { [$0] } ?? [])
            }
        }
    }

    /// The conformance of every interaction of `cassette`, in order.
    public func check(
        _ cassette: Cassette, bodyData: (CassetteBody) -> Data = { $0.inlineData ?? Data() }
    ) -> [InteractionConformance] {
        cassette.interactions.enumerated().map { index, interaction in
            let result = check(interaction, bodyData: bodyData)
            return InteractionConformance(index: index, summary: Self.summary(of: interaction),
                                          operation: result.operation, violations: result.violations)
        }
    }

    /// Loads the cassette at `url` (reading sidecar bodies) and checks every interaction.
    ///
    /// - Throws: `CassetteError` when the cassette cannot be loaded.
    public func check(cassetteAt url: URL) throws(CassetteError) -> [InteractionConformance] {
        let cassette = try CassetteFile.load(url)
        return check(cassette) { body in (try? CassetteFile.bodyData(body, cassette: url)) ?? Data() }
    }

    /// `GET https://api.example.com/pets/1 → 200` (or `→ error <code>` for a recorded failure).
    public static func summary(of interaction: Interaction) -> String {
        let outcome = interaction.response.map { String($0.statusCode) } ?? "error \(interaction.failure?.code ?? 0)"
        return "\(interaction.request.method) \(interaction.request.url) → \(outcome)"
    }

    /// What a request's path and method find in the document.
    enum Lookup {
        /// The most specific operation for the path and method, with the path parameters' values.
        case found(OperationRules, pathValues: [String: String])
        /// No path template matches `path`.
        case noPath(String)
        /// Path templates match, but none has the method; `allowed` are the methods they have.
        case noMethod(String, templates: [String], allowed: [String])

        /// Why nothing was found, as an `operation` violation.
        var violation: ConformanceViolation? {
            switch self {
            case .found: return nil
            case .noPath(let path):
                return ConformanceViolation(place: .operation, rule: "path", message: "no path in the document matches \(path)")
            case .noMethod(let method, let templates, let allowed):
                return ConformanceViolation(
                    place: .operation, rule: "method",
                    message: "\(templates.joined(separator: ", ")) has no \(method) operation (documented: \(allowed.joined(separator: ", ")))")
            }
        }
    }

    /// The operation for `request`'s path (under a server's base path) and method: the matching template with the
    /// most literal segments.
    func lookUp(_ request: Interaction.Request) -> Lookup {
        let path = String(URLParts(request.url).path)
        var pathMatches: [(OperationRules, [String: String])] = []
        for base in basePaths where base.isEmpty || path == base || path.hasPrefix(base + "/") {
            let pieces = PathTemplate.pieces(of: String(path.dropFirst(base.count)))
            for operation in operations {
                if let values = operation.path.match(pieces: pieces) { pathMatches.append((operation, values)) }
            }
            if !pathMatches.isEmpty { break }
        }
        guard !pathMatches.isEmpty else { return .noPath(path) }
        let method = request.method.uppercased()
        guard let best = pathMatches.filter({ $0.0.method == method }).max(by: { $0.0.path.literalCount < $1.0.path.literalCount }) else {
            return .noMethod(method, templates: Set(pathMatches.map(\.0.path.text)).sorted(),
                             allowed: Set(pathMatches.map(\.0.method)).sorted())
        }
        return .found(best.0, pathValues: best.1)
    }

    /// The path of each server URL; `""` when the document names no server (OpenAPI's default server is `/`).
    private static func basePaths(of document: OpenAPI.Document) -> [String] {
        var paths: Set<String> = document.servers.isEmpty ? [""] : []
        for server in document.servers {
            var text = server.urlTemplate.rawValue
            for (name, variable) in server.variables { text = text.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            let path = URLComponents(string: text)?.percentEncodedPath ?? ""
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            paths.insert(trimmed)
        }
        return paths.sorted { $0.count > $1.count }
    }
}

extension OpenAPIConformance {
    /// A `CassetteConfiguration/recordingCheck` that flags, while recording, an interaction that breaks this
    /// document: the request throws `CassetteError.recordingRejected` listing the violations (the interaction stays
    /// recorded).
    ///
    /// ```swift
    /// var configuration = CassetteConfiguration()
    /// configuration.recordingCheck = try OpenAPIConformance(contentsOf: specURL).recordingCheck
    /// let transport = try CassetteTransport(cassette: url, mode: .newEpisodes, upstream: CurlTransport(),
    ///                                       configuration: configuration)
    /// ```
    public var recordingCheck: @Sendable (Interaction, URL) -> [String] {
        { interaction, cassette in
            check(interaction) { body in (try? CassetteFile.bodyData(body, cassette: cassette)) ?? Data() }
                .violations.map(\.description)
        }
    }
}
