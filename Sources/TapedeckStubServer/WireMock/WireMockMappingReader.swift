import Foundation
import TapedeckCore

/// Reads one mapping; every failure names the mapping and the JSON path.
struct WireMockMappingReader {
    let mapping: JSONValue
    /// The mapping's JSON path from the document root (`mappings[3]`, `[3]`, or empty for a lone mapping).
    let prefix: String
    let filesDirectory: URL?
    let file: String?
    let name: String?

    init(_ mapping: JSONValue, prefix: String, filesDirectory: URL?, file: String?) {
        self.mapping = mapping
        self.prefix = prefix
        self.filesDirectory = filesDirectory
        self.file = file
        self.name = mapping["name"]?.stringValue
    }

    func fail(_ path: String, _ reason: String) -> WireMockMappingError {
        let location = [prefix, path].filter { !$0.isEmpty }.joined(separator: path.hasPrefix("[") ? "" : ".")
        return WireMockMappingError(file: file, location: location.isEmpty ? "$" : location, name: name, reason: reason)
    }

    // MARK: The mapping

    static let mappingFields: Set<String> = [
        "id", "uuid", "name", "priority", "request", "response", "scenarioName", "requiredScenarioState", "newScenarioState",
        "metadata", "persistent", "insertionIndex",
    ]

    static let unsupportedMappingFields = [
        "postServeActions": "post-serve actions (webhooks) are not supported",
        "serveEventListeners": "serve event listeners (webhooks) are not supported",
    ]

    func stub() throws(WireMockMappingError) -> Stub {
        guard case .object(let members) = mapping else { throw fail("", "expected a mapping (an object)") }
        try checkFields(members, at: "", allowed: Self.mappingFields, unsupported: Self.unsupportedMappingFields)
        let id = try optionalString(members["id"], at: "id")
        let uuid = try optionalString(members["uuid"], at: "uuid")
        if let id, let uuid, id != uuid { throw fail("uuid", "differs from id \"\(id)\"; give one, or the same in both") }
        if members["name"] != nil { _ = try string(members["name"], at: "name") }
        let priority = try members["priority"].map { value throws(WireMockMappingError) in try integer(value, at: "priority") }
        guard let request = members["request"] else { throw fail("request", "is missing") }
        let matcher = try requestPattern(request)
        let (responder, delay) = try readResponse(members["response"] ?? .object([:]))
        let scenarioName = try optionalString(members["scenarioName"], at: "scenarioName")
        let required = try optionalString(members["requiredScenarioState"], at: "requiredScenarioState")
        let new = try optionalString(members["newScenarioState"], at: "newScenarioState")
        var scenario: ScenarioStep?
        if let scenarioName {
            scenario = ScenarioStep(scenarioName, requiredState: required, newState: new)
        } else if required != nil || new != nil {
            throw fail(required != nil ? "requiredScenarioState" : "newScenarioState", "needs scenarioName")
        }
        return Stub(id: id ?? uuid ?? UUID().uuidString, name: name, matcher, priority: priority ?? Stub.defaultPriority,
                    responder: responder, delay: delay, scenario: scenario)
    }

    // MARK: The request

    static let requestFields: Set<String> = [
        "method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters", "headers", "cookies",
        "bodyPatterns", "basicAuthCredentials",
    ]

    static let unsupportedRequestFields = [
        "multipartPatterns": "multipart matching is not supported",
        "formParameters": "form parameter matching is not supported",
        "pathParameters": "path parameter matching is not supported",
        "customMatcher": "custom matchers (extensions) are not supported",
        "host": "matching the host is not supported (the stub server answers every host it is reached by)",
        "port": "matching the port is not supported",
        "scheme": "matching the scheme is not supported",
        "clientIp": "matching the client address is not supported",
    ]

    /// A request pattern at `location` (`request`, or a message stub's channel pattern).
    func requestPattern(_ request: JSONValue, at location: String = "request") throws(WireMockMappingError) -> RequestPattern {
        guard case .object(let members) = request else { throw fail(location, "expected an object") }
        try checkFields(members, at: location, allowed: Self.requestFields, unsupported: Self.unsupportedRequestFields)
        var pattern = RequestPattern()
        if let method = members["method"] {
            let text = try string(method, at: "\(location).method")
            if text.uppercased() != "ANY" { pattern.method = HTTPMethod(text.uppercased()) }
        }
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter { members[$0] != nil }
        if urlKeys.count > 1 { throw fail(location, "give at most one of url, urlPath, urlPattern, urlPathPattern and urlPathTemplate, not \(urlKeys.joined(separator: " and "))") }
        if let key = urlKeys.first {
            let text = try string(members[key], at: "\(location).\(key)")
            switch key {
            case "url":
                // The path alone files the stub in the index; the whole target is compared as WireMock does.
                let path = text.prefix { $0 != "?" }
                pattern.path = .exact(path.isEmpty ? "/" : String(path))
                pattern.url = .equalTo(text)
            case "urlPath":
                pattern.path = .exact(text)
            case "urlPattern":
                pattern.url = .matches(try regex(text, at: "\(location).urlPattern"))
            case "urlPathPattern":
                pattern.path = .regex(try regex(text, at: "\(location).urlPathPattern"))
            default:
                pattern.path = .template(try pathTemplate(text, at: "\(location).urlPathTemplate"))
            }
        }
        if let query = members["queryParameters"] {
            pattern.query = try valuePatterns(query, at: "\(location).queryParameters")
        }
        if let headers = members["headers"] {
            pattern.headers = try valuePatterns(headers, at: "\(location).headers")
        }
        if let cookies = members["cookies"] {
            pattern.cookies = try valuePatterns(cookies, at: "\(location).cookies")
        }
        if let credentials = members["basicAuthCredentials"] {
            guard case .object(let fields) = credentials else { throw fail("\(location).basicAuthCredentials", "expected an object") }
            try checkFields(fields, at: "\(location).basicAuthCredentials", allowed: ["username", "password"], unsupported: [:])
            let user = try string(fields["username"], at: "\(location).basicAuthCredentials.username")
            let password = try string(fields["password"], at: "\(location).basicAuthCredentials.password")
            if pattern.headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
                throw fail("\(location).basicAuthCredentials", "cannot be combined with a headers condition on Authorization")
            }
            pattern.headers["Authorization"] = .equalTo("Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        if let bodies = members["bodyPatterns"] {
            guard case .array(let list) = bodies else { throw fail("\(location).bodyPatterns", "expected an array") }
            var patterns: [BodyPattern] = []
            for (index, body) in list.enumerated() {
                patterns.append(try bodyPattern(body, at: "\(location).bodyPatterns[\(index)]"))
            }
            if patterns.count == 1 { pattern.body = patterns[0] } else if !patterns.isEmpty { pattern.body = .all(patterns) }
        }
        return pattern
    }

    /// WireMock's `urlPathTemplate` when every `{…}` is a whole segment named by letters, digits, `_` and `-`.
    func pathTemplate(_ text: String, at path: String) throws(WireMockMappingError) -> String {
        for segment in text.split(separator: "/", omittingEmptySubsequences: false) where segment.contains("{") || segment.contains("}") {
            let name = segment.dropFirst().dropLast()
            guard segment.hasPrefix("{"), segment.hasSuffix("}"), !name.isEmpty,
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw fail(path, "only whole-segment parameters such as /users/{id} are supported, not \"\(segment)\"")
            }
        }
        guard text.hasPrefix("/") else { throw fail(path, "must start with \"/\"") }
        return text
    }

    func valuePatterns(_ value: JSONValue, at path: String) throws(WireMockMappingError) -> [String: ValuePattern] {
        guard case .object(let members) = value else { throw fail(path, "expected an object of name → matcher") }
        var patterns: [String: ValuePattern] = [:]
        for name in members.keys.sorted() {
            patterns[name] = try valuePattern(members[name]!, at: "\(path).\(name)")
        }
        return patterns
    }

    static let valueMatchers = "equalTo (with caseInsensitive), contains, matches, doesNotMatch, doesNotContain, absent"

    static let unsupportedMatchers = [
        "hasExactly": "multi-value matching (hasExactly) is not supported",
        "includes": "multi-value matching (includes) is not supported",
        "and": "logical matchers (and) are not supported",
        "or": "logical matchers (or) are not supported",
        "not": "logical matchers (not) are not supported",
        "before": "date-time matchers are not supported",
        "after": "date-time matchers are not supported",
        "equalToDateTime": "date-time matchers are not supported",
        "equalToXml": "XML matchers are not supported",
        "matchesXPath": "XML matchers are not supported",
        "matchesJsonSchema": "JSON Schema matchers are not supported",
    ]

    /// A WireMock string-value matcher on a query parameter, header, cookie or JSON path value.
    func valuePattern(_ value: JSONValue, at path: String) throws(WireMockMappingError) -> ValuePattern {
        guard case .object(let members) = value else {
            throw fail(path, "expected a matcher object such as {\"equalTo\": \"…\"}")
        }
        let keys = members.keys.filter { $0 != "caseInsensitive" }.sorted()
        guard let key = keys.first else { throw fail(path, "give one of \(Self.valueMatchers)") }
        if keys.count > 1 { throw fail(path, "give one matcher, not \(keys.joined(separator: " and "))") }
        if members["caseInsensitive"] != nil, key != "equalTo" { throw fail("\(path).caseInsensitive", "applies to equalTo only") }
        let at = "\(path).\(key)"
        switch key {
        case "equalTo":
            let text = try string(members[key], at: at)
            if members["caseInsensitive"].map({ $0 == .bool(true) }) == true {
                return .matches(try regex("(?i)" + NSRegularExpression.escapedPattern(for: text), at: at))
            }
            if let flag = members["caseInsensitive"], flag != .bool(false) { throw fail("\(path).caseInsensitive", "expected true or false") }
            return .equalTo(text)
        case "contains": return .contains(try string(members[key], at: at))
        case "matches": return .matches(try regex(try string(members[key], at: at), at: at))
        case "doesNotMatch": return .doesNotMatch(try regex(try string(members[key], at: at), at: at))
        case "doesNotContain": return .doesNotContain(try string(members[key], at: at))
        case "absent":
            guard members[key] == .bool(true) else { throw fail(at, "only \"absent\": true is supported") }
            return .absent
        default:
            throw fail(at, Self.unsupportedMatchers[key] ?? "unknown matcher; use one of \(Self.valueMatchers)")
        }
    }

    static let bodyMatchers = "equalTo (with caseInsensitive), binaryEqualTo, contains, matches, equalToJson, matchesJsonPath"

    func bodyPattern(_ value: JSONValue, at path: String) throws(WireMockMappingError) -> BodyPattern {
        guard case .object(let members) = value else { throw fail(path, "expected a matcher object such as {\"equalToJson\": …}") }
        if members["enablePlaceholders"] != nil {
            throw fail("\(path).enablePlaceholders", "JSON placeholders (enablePlaceholders) are not supported")
        }
        let modifiers: Set<String> = ["caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements"]
        let keys = members.keys.filter { !modifiers.contains($0) }.sorted()
        guard let key = keys.first else { throw fail(path, "give one of \(Self.bodyMatchers)") }
        if keys.count > 1 { throw fail(path, "give one matcher, not \(keys.joined(separator: " and "))") }
        for modifier in modifiers.sorted() where members[modifier] != nil {
            let appliesTo = modifier == "caseInsensitive" ? "equalTo" : "equalToJson"
            if key != appliesTo { throw fail("\(path).\(modifier)", "applies to \(appliesTo) only") }
            guard members[modifier]?.boolValue != nil else { throw fail("\(path).\(modifier)", "expected true or false") }
        }
        let at = "\(path).\(key)"
        switch key {
        case "equalTo":
            let text = try string(members[key], at: at)
            if members["caseInsensitive"]?.boolValue == true {
                return .matches(try regex("(?i)" + NSRegularExpression.escapedPattern(for: text), at: at))
            }
            return .text(text)
        case "binaryEqualTo":
            guard let data = Data(base64Encoded: try string(members[key], at: at)) else { throw fail(at, "is not valid base64") }
            return .equalTo(data)
        case "contains": return .contains(try string(members[key], at: at))
        case "matches": return .matches(try regex(try string(members[key], at: at), at: at))
        case "equalToJson":
            let expected: JSONValue
            switch members[key]! {
            case .string(let text):
                // WireMock takes the JSON as text or as a value.
                do { expected = try JSONValueParser.parse(Data(text.utf8), allowingFragments: true) } catch {
                    throw fail(at, "is not JSON text: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")")
                }
            case let other: expected = other
            }
            return .json(expected, ignoringArrayOrder: members["ignoreArrayOrder"]?.boolValue ?? false,
                         ignoringExtraElements: members["ignoreExtraElements"]?.boolValue ?? false)
        case "matchesJsonPath":
            switch members[key]! {
            case .string(let expression):
                return .jsonPath(try jsonPath(expression, at: at), nil)
            case .object(var fields):
                guard let expression = fields.removeValue(forKey: "expression") else { throw fail(at, "needs an expression") }
                let parsed = try jsonPath(try string(expression, at: "\(at).expression"), at: "\(at).expression")
                if fields.isEmpty { return .jsonPath(parsed, nil) }
                if fields["equalToJson"] != nil || fields["matchesJsonPath"] != nil {
                    throw fail(at, "a JSON matcher on a JSON path's value is not supported; use \(Self.valueMatchers)")
                }
                return .jsonPath(parsed, try valuePattern(.object(fields), at: at))
            default:
                throw fail(at, "expected a JSONPath expression or {\"expression\": …, \"equalTo\": …}")
            }
        case "doesNotMatch", "doesNotContain", "absent":
            throw fail(at, "is not supported on a body; use one of \(Self.bodyMatchers)")
        default:
            throw fail(at, Self.unsupportedMatchers[key] ?? "unknown body matcher; use one of \(Self.bodyMatchers)")
        }
    }

    func jsonPath(_ expression: String, at path: String) throws(WireMockMappingError) -> JSONPath {
        do { return try JSONPath(expression) } catch { throw fail(path, error.description) }
    }
}
