import Foundation
import TapedeckCassette
import TapedeckCore

/// Answers requests as the provider an OpenAPI document describes: the engine of `tapedeck serve --openapi` and
/// `StubServer(openAPI:)`, usable alone on `Interaction.Request`s (pure logic, no I/O after it is made).
///
/// A request is first checked as ``OpenAPIConformance`` checks a recorded one (its path and method find an
/// operation; parameters and body conform). A path the document lacks gets `404`, a method its path lacks `405` with
/// `Allow`, and a request that breaks the document `400`; each as `application/problem+json` listing the violations
/// with their place, JSON pointer and rule; but where the operation documents its own error answer (`400`, `422`,
/// `4XX` or `default`), an invalid request gets that, in its media type, with its example or a generated body, and
/// the violations in a `Tapedeck-Violations` header. ``Options/validatesRequests`` off skips the check. An
/// operation that documents no response at all (OpenAPI 3.1 allows it) answers `204`. A conforming request gets the
/// operation's first documented success
/// (the lowest `2xx`, else `2XX` as 200, else `default` as 200), in the first media type the `Accept` header allows
/// (JSON when it allows any; `406` when it allows none), with the documented example, or a value generated from the
/// schema (the same for the same seed, checked against the schema), and the documented response headers. As Prism
/// does, `Prefer: code=404` asks for another documented status and `Prefer: example=name` for a named example.
///
/// ```swift
/// let mock = try OpenAPIMock(contentsOf: URL(fileURLWithPath: "openapi.yaml"), seed: 7)
/// let answer = mock.respond(to: Interaction.Request(method: "GET", url: "/pets/1"))
/// answer.statusCode  // 200, with the documented example or a generated Pet
/// ```
public struct OpenAPIMock: Sendable {
    /// The document's checker, which finds operations and validates requests.
    public let conformance: OpenAPIConformance
    /// The seed generated values are drawn from.
    public let seed: UInt64
    /// How the mock answers.
    public let options: Options
    private let responses: [ObjectIdentifier: [ResponseKey: MockResponse]]

    /// How the mock answers.
    public struct Options: Sendable, Hashable {
        /// Whether requests are checked against the document (an invalid one gets an error answer); on by default.
        public var validatesRequests: Bool
        /// Whether documented examples are answered with (the default) or every answer is generated from its schema.
        public var usesExamples: Bool

        /// Creates options.
        public init(validatesRequests: Bool = true, usesExamples: Bool = true) {
            self.validatesRequests = validatesRequests
            self.usesExamples = usesExamples
        }
    }

    /// Prepares answers for every operation of `conformance`'s document.
    public init(_ conformance: OpenAPIConformance, seed: UInt64 = 0, options: Options = Options()) {
        self.conformance = conformance
        self.seed = seed
        self.options = options
        var responses: [ObjectIdentifier: [ResponseKey: MockResponse]] = [:]
        for operation in conformance.operations {
            var prepared: [ResponseKey: MockResponse] = [:]
            for (key, rule) in operation.responses {
                prepared[key] = MockResponse(rule, place: "\(operation.label) \(key)", seed: seed,
                                             root: conformance.schemaRoot, program: conformance.program, usingExamples: options.usesExamples)
            }
            responses[ObjectIdentifier(operation)] = prepared
        }
        self.responses = responses
    }

    /// Reads the document in `url` (OpenAPI 3.0 or 3.1, JSON or YAML) and prepares answers for it.
    ///
    /// - Throws: ``OpenAPIDocumentError`` as ``OpenAPIConformance/init(contentsOf:)`` does.
    public init(contentsOf url: URL, seed: UInt64 = 0, options: Options = Options()) throws(OpenAPIDocumentError) {
        self.init(try OpenAPIConformance(contentsOf: url), seed: seed, options: options)
    }

    /// The documented examples that break their own schema, each as `listPets 200 application/json example
    /// 'cats': /0/id: type: …` (the JSON pointer inside the example), in a stable order.
    public var exampleProblems: [String] {
        var found: [String] = []
        for operation in conformance.operations {
            for (key, response) in responses[ObjectIdentifier(operation)] ?? [:] {
                for content in response.content {
                    found += content.exampleProblems.map { "\(operation.label) \(key) \(content.range) \($0)" }
                }
            }
        }
        return found.sorted()
    }

    /// The responses for which no value could be made (`listPets 200 application/json: /name: …`): they answer `500`
    /// with the same words, so a document that needs an example says so instead of answering something invalid.
    public var problems: [String] {
        var found: [String] = []
        for operation in conformance.operations {
            for (key, response) in responses[ObjectIdentifier(operation)] ?? [:] {
                for content in response.content {
                    if case .failure(let failure)? = content.generated {
                        found.append("\(operation.label) \(key) \(content.range): \(failure.reason)")
                    }
                }
            }
        }
        return found.sorted()
    }

    /// The answer to `request` (its `url` may be a path with a query, or an absolute URL).
    public func respond(to request: Interaction.Request) -> Interaction.Response {
        switch conformance.lookUp(request) {
        case .noPath(let path):
            return Self.problem(404, title: "No operation of the document has this path", detail: "no path in the document matches \(path)")
        case .noMethod(let method, let templates, let allowed):
            var response = Self.problem(405, title: "The path has no operation for this method",
                                        detail: "\(templates.joined(separator: ", ")) has no \(method) operation")
            response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
            return response
        case .found(let operation, let pathValues):
            let preferences = MockPreferences(prefer: request.headers["Prefer"], accept: request.headers["Accept"])
            if options.validatesRequests {
                var check = InteractionCheck(program: conformance.program, bodyData: { $0.inlineData ?? Data() })
                check.checkRequest(request, operation: operation, pathValues: pathValues)
                if !check.violations.isEmpty { return invalidRequest(operation, violations: check.violations, preferences: preferences) }
            }
            return answer(operation, preferences: preferences)
        }
    }

    /// The answer to a request that breaks the document: the operation's documented error answer (`400`, `422`,
    /// `4XX` as 400, `default` as 400) with the violations in a header, else `application/problem+json`.
    private func invalidRequest(_ operation: OperationRules, violations: [ConformanceViolation],
                                preferences: MockPreferences) -> Interaction.Response {
        let prepared = responses[ObjectIdentifier(operation)] ?? [:]
        let documented: [(ResponseKey, Int)] = [(.status(400), 400), (.status(422), 422), (.range(4), 400), (.default, 400)]
        guard let (key, status) = documented.first(where: { prepared[$0.0] != nil }) else {
            return Self.problem(400, title: "The request does not conform to the OpenAPI document",
                                detail: "\(operation.label): \(violations.count) violation(s)", violations: violations)
        }
        var plain = preferences
        plain.code = nil
        plain.example = nil
        var response = answer(operation, key: key, status: status, preferences: plain)
        let summary = violations.prefix(5).map { "\($0.place)\($0.pointer ?? ""): \($0.rule): \($0.message)" }
            .joined(separator: "; ").unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "?" }.joined()
        response.headers.add(name: "Tapedeck-Violations", value: "\(violations.count) violation(s): \(summary)")
        return response
    }

    private func answer(_ operation: OperationRules, preferences: MockPreferences) -> Interaction.Response {
        let prepared = responses[ObjectIdentifier(operation)] ?? [:]
        let status: Int
        if let code = preferences.code {
            guard operation.response(for: code) != nil else {
                return Self.problem(400, title: "Prefer asks for an undocumented status",
                                    detail: "\(operation.label) documents \(operation.documentedStatuses), not \(code)")
            }
            status = code
        } else {
            status = Self.successStatus(of: Array(prepared.keys))
        }
        guard (200...599).contains(status) else {
            // A 1xx status is not an answer: the server would send it and wait for ever for the final one.
            return Self.problem(501, title: "A mock cannot answer with an informational status",
                                detail: "\(operation.label) would answer \(status), and a 1xx status is not a final answer; "
                                    + "document a final status, or ask for one with Prefer: code=…")
        }
        let key: ResponseKey = prepared[.status(status)] != nil ? .status(status)
            : prepared[.range(status / 100)] != nil ? .range(status / 100) : .default
        return answer(operation, key: key, status: status, preferences: preferences)
    }

    /// The documented response `key` answered with `status`; `204` when the operation documents no response.
    private func answer(_ operation: OperationRules, key: ResponseKey, status: Int, preferences: MockPreferences) -> Interaction.Response {
        guard let response = responses[ObjectIdentifier(operation)]?[key] else {
            // OpenAPI 3.1 lets an operation leave its responses out: there is nothing to say, and nothing went wrong.
            return Interaction.Response(statusCode: 204)
        }
        var headers = HTTPHeaders()
        for header in response.headers { headers.add(name: header.name, value: header.value) }
        guard !response.content.isEmpty, status != 204, status != 304 else {
            return Interaction.Response(statusCode: status, headers: headers)
        }
        guard let (content, mediaType) = Self.negotiate(response.content, accepted: preferences.accepted) else {
            let documented = response.content.map(\.range).joined(separator: ", ")
            return Self.problem(406, title: "No documented media type is acceptable",
                                detail: "\(operation.label) \(key) answers \(documented); Accept allows \(preferences.accepted.joined(separator: ", "))")
        }
        switch content.value(named: preferences.example) {
        case nil:
            headers["Content-Type"] = mediaType
            return Interaction.Response(statusCode: status, headers: headers)
        case .failure(let failure)?:
            return Self.problem(500, title: "No value could be made for the response",
                                detail: "\(operation.label) \(key) \(content.range): \(failure.reason)")
        case .success(let prepared)?:
            headers["Content-Type"] = mediaType
            return Interaction.Response(statusCode: status, headers: headers, body: CassetteBody(prepared.body(as: mediaType)))
        }
    }

    /// The status a request gets unless it prefers another: the lowest documented `2xx`, else 200 (for `2XX` or
    /// `default`), else the lowest documented final status (`3xx` to `5xx`), else the lowest documented status (a
    /// `1xx`, which ``respond(to:)`` refuses to answer with).
    static func successStatus(of keys: [ResponseKey]) -> Int {
        let exact = keys.compactMap { key -> Int? in if case .status(let code) = key { return code } else { return nil } }.sorted()
        if let success = exact.first(where: { (200..<300).contains($0) }) { return success }
        if keys.contains(.range(2)) || keys.contains(.default) { return 200 }
        return exact.first(where: { $0 >= 200 }) ?? exact.first ?? 200
    }

    /// The content to answer with and its `Content-Type`: the first documented media type the most preferred
    /// acceptable range covers (JSON first when any is acceptable). A documented range (`image/*`) takes the
    /// accepted concrete type, or `application/octet-stream`.
    static func negotiate(_ contents: [MockContent], accepted: [String]) -> (MockContent, String)? {
        let ranges = accepted.isEmpty ? ["*/*"] : accepted
        for range in ranges {
            let candidates = contents.filter { MockPreferences.range(range, covers: $0.range) || MockPreferences.range($0.range, covers: range) }
            guard let chosen = candidates.first(where: { MediaTypeMatching.isJSON($0.range) }) ?? candidates.first else { continue }
            if !chosen.range.contains("*") { return (chosen, chosen.range) }
            return (chosen, range.contains("*") ? "application/octet-stream" : range)
        }
        return nil
    }

    /// An `application/problem+json` answer (RFC 9457) with the violations, when there are any.
    static func problem(_ status: Int, title: String, detail: String, violations: [ConformanceViolation] = []) -> Interaction.Response {
        var members: [String: JSONValue] = ["status": .number(Double(status)), "title": .string(title), "detail": .string(detail)]
        if !violations.isEmpty {
            members["violations"] = .array(violations.map { violation in
                var entry: [String: JSONValue] = ["place": .string(violation.place.description), "rule": .string(violation.rule),
                                                  "message": .string(violation.message)]
                if let pointer = violation.pointer { entry["pointer"] = .string(pointer) }
                return .object(entry)
            })
        }
        return Interaction.Response(statusCode: status, headers: ["Content-Type": "application/problem+json"],
                                    body: CassetteBody(JSONValue.object(members).encoded))
    }
}
