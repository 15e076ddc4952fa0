import Foundation
import TapedeckCassette
import TapedeckCore

/// The checks of one interaction against the operation it matched, gathering ``ConformanceViolation``s.
struct InteractionCheck {
    let program: SchemaProgram
    let bodyData: (CassetteBody) -> Data
    var violations: [ConformanceViolation] = []

    /// Request headers the OpenAPI specification says are described elsewhere and must be ignored as parameters.
    private static let ignoredHeaderParameters: Set<String> = ["accept", "content-type", "authorization"]

    /// Checks `interaction` against the operation its request matched.
    mutating func run(_ interaction: Interaction, operation: OperationRules, pathValues: [String: String]) {
        checkRequest(interaction.request, operation: operation, pathValues: pathValues)
        if let response = interaction.response {
            checkResponse(response, operation: operation, method: interaction.request.method)
        }
    }

    /// Checks a request's parameters and body against the operation it matched.
    mutating func checkRequest(_ request: Interaction.Request, operation: OperationRules, pathValues: [String: String]) {
        checkParameters(operation, request, pathValues: pathValues)
        if let rule = operation.requestBody {
            checkBody(request.body, headers: request.headers, rule: rule, place: .requestBody)
        }
    }

    private mutating func checkParameters(_ operation: OperationRules, _ request: Interaction.Request, pathValues: [String: String]) {
        let query = Self.queryValues(request.url)
        let cookies = Self.cookieValues(request.headers["Cookie"])
        for rule in operation.parameters {
            let texts: [String]
            let place: ConformanceViolation.Place
            switch rule.location {
            case .path:
                texts = pathValues[rule.name].map { [$0] } ?? []
                place = .pathParameter(rule.name)
            case .query:
                texts = query[rule.name] ?? []
                place = .queryParameter(rule.name)
            case .header:
                guard !Self.ignoredHeaderParameters.contains(rule.name.lowercased()) else { continue }
                texts = request.headers.values(for: rule.name)
                place = .requestHeader(rule.name)
            case .cookie:
                texts = cookies[rule.name].map { [$0] } ?? []
                place = .cookie(rule.name)
            }
            checkParameter(rule, texts: texts, place: place)
        }
    }

    private mutating func checkParameter(_ rule: ParameterRule, texts: [String], place: ConformanceViolation.Place) {
        guard !texts.isEmpty else {
            if rule.required || rule.location == .path {
                violations.append(ConformanceViolation(place: place, rule: "required", message: "the required parameter is missing"))
            }
            return
        }
        guard let schema = rule.schema else { return }
        let value = ParameterValues(program: program).value(of: texts, for: rule)
        appendSchemaViolations(of: value, schema: schema, place: place)
    }

    private mutating func checkResponse(_ response: Interaction.Response, operation: OperationRules, method: String) {
        guard let rule = operation.response(for: response.statusCode) else {
            violations.append(ConformanceViolation(
                place: .status, rule: "status",
                message: "\(response.statusCode) is not documented for \(operation.label) (documented: \(operation.documentedStatuses))"))
            return
        }
        for header in rule.headers where header.name.lowercased() != "content-type" {
            checkParameter(header, texts: response.headers.values(for: header.name), place: .responseHeader(header.name))
        }
        let hasNoBody = method.uppercased() == "HEAD" || response.statusCode == 204 || response.statusCode == 304
        if !hasNoBody, !rule.content.mediaTypes.isEmpty {
            checkBody(response.body, headers: response.headers, rule: rule.content, place: .responseBody)
        }
    }

    private mutating func checkBody(_ body: CassetteBody, headers: HTTPHeaders, rule: BodyRule, place: ConformanceViolation.Place) {
        guard !body.isEmpty else {
            if rule.required {
                violations.append(ConformanceViolation(place: place, rule: "required", message: "the required body is empty"))
            }
            return
        }
        let documented = rule.mediaTypes.map(\.range).joined(separator: ", ")
        let mediaType: String
        if let contentType = headers["Content-Type"] {
            mediaType = MediaType.essence(of: contentType)
        } else if rule.mediaTypes.count == 1, !rule.mediaTypes[0].range.utf8.contains(UInt8(ascii: "*")) {
            mediaType = rule.mediaTypes[0].range
        } else {
            violations.append(ConformanceViolation(place: place, rule: "mediaType",
                                                   message: "the body has no Content-Type (documented: \(documented))"))
            return
        }
        guard let mediaRule = MediaTypeMatching.rule(for: mediaType, in: rule.mediaTypes) else {
            violations.append(ConformanceViolation(place: place, rule: "mediaType",
                                                   message: "\(mediaType) is not documented (documented: \(documented))"))
            return
        }
        guard let schema = mediaRule.schema, MediaTypeMatching.isJSON(mediaType) else { return }
        guard let value = JSONValue(parsing: bodyData(body)) else {
            violations.append(ConformanceViolation(place: place, pointer: "", rule: "json", message: "the \(mediaType) body is not valid JSON"))
            return
        }
        appendSchemaViolations(of: value, schema: schema, place: place)
    }

    private mutating func appendSchemaViolations(of value: JSONValue, schema: Int, place: ConformanceViolation.Place) {
        var evaluation = SchemaEvaluation(program: program, collecting: true)
        guard !evaluation.check(value, against: schema, at: "") else { return }
        for violation in evaluation.orderedViolations {
            violations.append(ConformanceViolation(place: place, pointer: violation.instancePointer,
                                                   rule: violation.keyword, message: violation.message))
        }
    }

    /// Query values by name, in order, decoded as a form (`+` is a space).
    static func queryValues(_ url: String) -> [String: [String]] {
        guard let query = URLParts(url).query, !query.isEmpty else { return [:] }
        var values: [String: [String]] = [:]
        for (name, value) in URLEncodedForm.pairs(Data(query.utf8)) { values[name, default: []].append(value) }
        return values
    }

    /// `a=1; b=2` → `["a": "1", "b": "2"]`.
    static func cookieValues(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var values: [String: String] = [:]
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
            values[name] = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        }
        return values
    }
}
