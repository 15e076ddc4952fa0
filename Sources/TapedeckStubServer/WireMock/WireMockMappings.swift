import CMicroHTTPD
import Foundation
import TapedeckCore

/// Reads WireMock stub mappings (the JSON of WireMock's `mappings` folder and of `POST /__admin/mappings/import`)
/// into the stub server's own ``Stub`` values, refusing with a ``WireMockMappingError`` anything the stub server
/// cannot do as WireMock would, never ignoring it. The StubDefinitions article lists what is read and what is
/// refused.
///
/// ```swift
/// for stub in try WireMockMappings.stubs(from: data) { server.add(stub) }
/// for stub in try WireMockMappings.stubs(inDirectory: URL(fileURLWithPath: "wiremock/mappings")) { server.add(stub) }
/// ```
public enum WireMockMappings {
    /// The stubs of one mapping, an array of them, or `{"mappings": [...]}`, in order. A `bodyFileName` is read
    /// from `filesDirectory` (WireMock's `__files`); without one, a mapping that names a body file is refused.
    /// `file` names the source in errors.
    public static func stubs(from data: Data, filesDirectory: URL? = nil, file: String? = nil) throws(WireMockMappingError) -> [Stub] {
        try stubs(from: try parse(data, file: file), filesDirectory: filesDirectory, file: file)
    }

    /// JSON text as a document to read, or the parser's reason why it is not JSON.
    public static func parse(_ data: Data, file: String? = nil) throws(WireMockMappingError) -> JSONValue {
        do {
            return try JSONValueParser.parse(data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw WireMockMappingError(file: file, location: "$", reason: "not JSON: \(detail)")
        }
    }

    /// The stubs of an already parsed document (one mapping, an array, or `{"mappings": [...]}`), as the `Data` form reads them.
    public static func stubs(from document: JSONValue, filesDirectory: URL? = nil, file: String? = nil) throws(WireMockMappingError) -> [Stub] {
        var stubs: [Stub] = []
        switch document {
        case .array(let mappings):
            stubs.reserveCapacity(mappings.count)
            for (index, mapping) in mappings.enumerated() {
                stubs.append(try MappingReader(mapping, prefix: "[\(index)]", filesDirectory: filesDirectory, file: file).stub())
            }
        case .object(let members):
            if let list = members["mappings"] {
                if let extra = members.keys.sorted().first(where: { $0 != "mappings" && $0 != "meta" }) {
                    throw WireMockMappingError(file: file, location: extra, reason: "is not supported beside \"mappings\"")
                }
                guard case .array(let mappings) = list else {
                    throw WireMockMappingError(file: file, location: "mappings", reason: "expected an array of mappings")
                }
                stubs.reserveCapacity(mappings.count)
                for (index, mapping) in mappings.enumerated() {
                    stubs.append(try MappingReader(mapping, prefix: "mappings[\(index)]", filesDirectory: filesDirectory, file: file).stub())
                }
            } else {
                stubs.append(try MappingReader(document, prefix: "", filesDirectory: filesDirectory, file: file).stub())
            }
        default:
            throw WireMockMappingError(file: file, location: "$", reason: "expected a mapping, an array of mappings or {\"mappings\": [...]}")
        }
        return stubs
    }

    /// The stubs of a WireMock `mappings` folder: every `*.json` file in it and its subfolders, in the order of
    /// their paths. Body files are read from the `__files` folder beside it, as WireMock does. `directory` may also
    /// be WireMock's root folder, the one that holds `mappings` and `__files`.
    public static func stubs(inDirectory directory: URL) throws(WireMockMappingError) -> [Stub] {
        var mappingsFolder = directory.standardizedFileURL
        let nested = mappingsFolder.appendingPathComponent("mappings")
        var isDirectory: ObjCBool = false
        if mappingsFolder.lastPathComponent != "mappings", FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory),
           isDirectory.boolValue {
            mappingsFolder = nested
        }
        let files = mappingsFolder.deletingLastPathComponent().appendingPathComponent("__files")
        guard let enumerator = FileManager.default.enumerator(at: mappingsFolder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw WireMockMappingError(file: directory.path, location: "$", reason: "cannot read the folder")
        }
        var paths: [URL] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "json" {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { paths.append(url) }
        }
        paths.sort { $0.path < $1.path }
        var stubs: [Stub] = []
        for url in paths {
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw WireMockMappingError(file: url.path, location: "$", reason: "cannot be read: \(error.localizedDescription)")
            }
            stubs += try self.stubs(from: data, filesDirectory: files, file: url.path)
        }
        return stubs
    }

    /// The `__files` folder WireMock would read a mapping file's body files from: beside the `mappings` folder the
    /// file is in, or beside the file itself when it is not in one.
    public static func filesDirectory(forMappingFile file: URL) -> URL {
        let folder = file.standardizedFileURL.deletingLastPathComponent()
        let root = folder.lastPathComponent == "mappings" ? folder.deletingLastPathComponent() : folder
        return root.appendingPathComponent("__files")
    }

    /// Whether `data` reads as WireMock mappings rather than Tapedeck stub definitions: `{"mappings": [...]}`, or
    /// mappings with a field only WireMock uses (request `url`, `urlPath`, `urlPattern`, `urlPathPattern`,
    /// `urlPathTemplate`, `queryParameters`, `bodyPatterns`, `basicAuthCredentials`; response `bodyFileName`,
    /// `fixedDelayMilliseconds`, `delayDistribution`, `statusMessage`, `transformers`, `proxyBaseUrl`; `uuid`,
    /// `scenarioName`, `requiredScenarioState`, `newScenarioState`) and none only Tapedeck uses (`stubs`, request
    /// `path`, `pathTemplate`, `pathRegex`, `query`, `body`; response `bodyFile`, `template`, `chunked`; `delay`,
    /// `scenario`). Fields both use (`method`, `headers`, `status`, `body`, `jsonBody`, `base64Body`) decide nothing.
    public static func looksLikeMappings(_ data: Data) -> Bool {
        guard let document = try? JSONValueParser.parse(data) else { return false }
        return looksLikeMappings(document)
    }

    /// Whether an already parsed document reads as WireMock mappings, as the `Data` form decides.
    public static func looksLikeMappings(_ document: JSONValue) -> Bool {
        if document["mappings"] != nil { return true }
        if document["stubs"] != nil { return false }
        let mappings = document.arrayValue ?? [document]
        var wireMock = false
        for mapping in mappings {
            guard let members = mapping.objectValue else { continue }
            let request = members["request"]?.objectValue ?? [:]
            let response = members["response"]?.objectValue ?? [:]
            if !tapedeckOnly.top.isDisjoint(with: members.keys) || !tapedeckOnly.request.isDisjoint(with: request.keys)
                || !tapedeckOnly.response.isDisjoint(with: response.keys) {
                return false
            }
            if !wireMockOnly.top.isDisjoint(with: members.keys) || !wireMockOnly.request.isDisjoint(with: request.keys)
                || !wireMockOnly.response.isDisjoint(with: response.keys) {
                wireMock = true
            }
        }
        return wireMock
    }

    private static let wireMockOnly = (
        top: Set(["uuid", "scenarioName", "requiredScenarioState", "newScenarioState", "postServeActions", "persistent", "metadata"]),
        request: Set(["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters", "bodyPatterns",
                      "basicAuthCredentials", "multipartPatterns", "formParameters"]),
        response: Set(["bodyFileName", "fixedDelayMilliseconds", "delayDistribution", "statusMessage", "transformers", "proxyBaseUrl",
                       "chunkedDribbleDelay"])
    )

    private static let tapedeckOnly = (
        top: Set(["delay", "scenario", "summary"]),
        request: Set(["path", "pathTemplate", "pathRegex", "query", "body"]),
        response: Set(["bodyFile", "template", "chunked", "partialBodySent", "partialBodyDeclared"])
    )
}

/// Reads one mapping; every failure names the mapping and the JSON path.
private struct MappingReader {
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

    func requestPattern(_ request: JSONValue) throws(WireMockMappingError) -> RequestPattern {
        guard case .object(let members) = request else { throw fail("request", "expected an object") }
        try checkFields(members, at: "request", allowed: Self.requestFields, unsupported: Self.unsupportedRequestFields)
        var pattern = RequestPattern()
        if let method = members["method"] {
            let text = try string(method, at: "request.method")
            if text.uppercased() != "ANY" { pattern.method = HTTPMethod(text.uppercased()) }
        }
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter { members[$0] != nil }
        if urlKeys.count > 1 { throw fail("request", "give at most one of url, urlPath, urlPattern, urlPathPattern and urlPathTemplate, not \(urlKeys.joined(separator: " and "))") }
        if let key = urlKeys.first {
            let text = try string(members[key], at: "request.\(key)")
            switch key {
            case "url":
                // The path alone files the stub in the index; the whole target is compared as WireMock does.
                let path = text.prefix { $0 != "?" }
                pattern.path = .exact(path.isEmpty ? "/" : String(path))
                pattern.url = .equalTo(text)
            case "urlPath":
                pattern.path = .exact(text)
            case "urlPattern":
                pattern.url = .matches(try regex(text, at: "request.urlPattern"))
            case "urlPathPattern":
                pattern.path = .regex(try regex(text, at: "request.urlPathPattern"))
            default:
                pattern.path = .template(try pathTemplate(text))
            }
        }
        if let query = members["queryParameters"] {
            pattern.query = try valuePatterns(query, at: "request.queryParameters")
        }
        if let headers = members["headers"] {
            pattern.headers = try valuePatterns(headers, at: "request.headers")
        }
        if let cookies = members["cookies"] {
            pattern.cookies = try valuePatterns(cookies, at: "request.cookies")
        }
        if let credentials = members["basicAuthCredentials"] {
            guard case .object(let fields) = credentials else { throw fail("request.basicAuthCredentials", "expected an object") }
            try checkFields(fields, at: "request.basicAuthCredentials", allowed: ["username", "password"], unsupported: [:])
            let user = try string(fields["username"], at: "request.basicAuthCredentials.username")
            let password = try string(fields["password"], at: "request.basicAuthCredentials.password")
            if pattern.headers.keys.contains(where: { $0.lowercased() == "authorization" }) {
                throw fail("request.basicAuthCredentials", "cannot be combined with a headers condition on Authorization")
            }
            pattern.headers["Authorization"] = .equalTo("Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        if let bodies = members["bodyPatterns"] {
            guard case .array(let list) = bodies else { throw fail("request.bodyPatterns", "expected an array") }
            var patterns: [BodyPattern] = []
            for (index, body) in list.enumerated() {
                patterns.append(try bodyPattern(body, at: "request.bodyPatterns[\(index)]"))
            }
            if patterns.count == 1 { pattern.body = patterns[0] } else if !patterns.isEmpty { pattern.body = .all(patterns) }
        }
        return pattern
    }

    /// WireMock's `urlPathTemplate` when every `{…}` is a whole segment named by letters, digits, `_` and `-`.
    func pathTemplate(_ text: String) throws(WireMockMappingError) -> String {
        for segment in text.split(separator: "/", omittingEmptySubsequences: false) where segment.contains("{") || segment.contains("}") {
            let name = segment.dropFirst().dropLast()
            guard segment.hasPrefix("{"), segment.hasSuffix("}"), !name.isEmpty,
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw fail("request.urlPathTemplate", "only whole-segment parameters such as /users/{id} are supported, not \"\(segment)\"")
            }
        }
        guard text.hasPrefix("/") else { throw fail("request.urlPathTemplate", "must start with \"/\"") }
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

    // MARK: The response

    static let responseFields: Set<String> = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "fixedDelayMilliseconds",
        "delayDistribution", "fault", "chunkedDribbleDelay",
    ]

    static let unsupportedResponseFields = [
        "proxyBaseUrl": "proxying is not supported",
        "additionalProxyRequestHeaders": "proxying is not supported",
        "removeProxyRequestHeaders": "proxying is not supported",
        "proxyUrlPrefixToRemove": "proxying is not supported",
        "transformers": "response transformers (response templating included) are not supported",
        "transformerParameters": "response transformers (response templating included) are not supported",
    ]

    static let faults: [String: StubFault] = [
        "EMPTY_RESPONSE": .closeWithoutResponse,
        "CONNECTION_RESET_BY_PEER": .reset,
        // WireMock: "Send an OK status header, then garbage, then close the connection."
        "MALFORMED_RESPONSE_CHUNK": .malformedResponse(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)),
        // WireMock: "Send garbage, then close the connection." The same bytes every time.
        "RANDOM_DATA_THEN_CLOSE": .malformedResponse(Data("lskdu018973t09sylgasjkfg1][]'./.sdlv\r\n\r\n".utf8)),
    ]

    func readResponse(_ response: JSONValue) throws(WireMockMappingError) -> (StubResponder, StubDelay?) {
        guard case .object(let members) = response else { throw fail("response", "expected an object") }
        try checkFields(members, at: "response", allowed: Self.responseFields, unsupported: Self.unsupportedResponseFields)
        let delay = try readDelay(members)
        if let fault = members["fault"] {
            let name = try string(fault, at: "response.fault")
            guard let mapped = Self.faults[name] else {
                throw fail("response.fault", "unknown fault \"\(name)\"; use one of \(Self.faults.keys.sorted().joined(separator: ", "))")
            }
            let others = members.keys.filter { !["fault", "fixedDelayMilliseconds", "delayDistribution"].contains($0) }.sorted()
            if !others.isEmpty { throw fail("response", "a fault sends no response; remove \(others.joined(separator: ", "))") }
            return (.fault(mapped), delay)
        }
        let status = try members["status"].map { value throws(WireMockMappingError) in try integer(value, at: "response.status") } ?? 200
        guard (100...599).contains(status) else { throw fail("response.status", "must be between 100 and 599, got \(status)") }
        if let message = members["statusMessage"] {
            let text = try string(message, at: "response.statusMessage")
            let standard = MHD_get_reason_phrase_for(UInt32(status)).map { String(cString: $0) } ?? ""
            if !text.isEmpty, text.caseInsensitiveCompare(standard) != .orderedSame {
                throw fail("response.statusMessage", "the stub server sends the standard reason phrase \"\(standard)\" for \(status); "
                           + "a custom one (\"\(text)\") is not supported")
            }
        }
        var headers = HTTPHeaders()
        if let given = members["headers"] {
            guard case .object(let fields) = given else { throw fail("response.headers", "expected an object of name → value") }
            for name in fields.keys.sorted() {
                switch fields[name]! {
                case .string(let value): headers.add(name: name, value: value)
                case .array(let values):
                    for (index, value) in values.enumerated() {
                        headers.add(name: name, value: try string(value, at: "response.headers.\(name)[\(index)]"))
                    }
                default: throw fail("response.headers.\(name)", "expected a string or an array of strings")
                }
            }
        }
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { members[$0] != nil }
        if bodies.count > 1 { throw fail("response", "give at most one of body, jsonBody, base64Body and bodyFileName, not \(bodies.joined(separator: " and "))") }
        var result = StubResponse(status: status, headers: headers)
        if let body = members["body"] {
            result.body = .data(Data(try string(body, at: "response.body").utf8))
        }
        if let json = members["jsonBody"] {
            result.body = .data(json.encoded)
        }
        if let base64 = members["base64Body"] {
            guard let data = Data(base64Encoded: try string(base64, at: "response.base64Body")) else {
                throw fail("response.base64Body", "is not valid base64")
            }
            result.body = .data(data)
        }
        if let fileName = members["bodyFileName"] {
            let name = try string(fileName, at: "response.bodyFileName")
            guard let filesDirectory else {
                throw fail("response.bodyFileName", "needs the __files folder beside the mappings: read them from a file or folder")
            }
            let url = filesDirectory.appendingPathComponent(name).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  FileManager.default.isReadableFile(atPath: url.path) else {
                throw fail("response.bodyFileName", "\"\(name)\" is not a readable file in \(filesDirectory.path)")
            }
            result.body = .file(url)
        }
        if let dribble = members["chunkedDribbleDelay"] {
            guard case .object(let fields) = dribble else { throw fail("response.chunkedDribbleDelay", "expected an object") }
            try checkFields(fields, at: "response.chunkedDribbleDelay", allowed: ["numberOfChunks", "totalDuration"], unsupported: [:])
            let chunks = try integer(fields["numberOfChunks"], at: "response.chunkedDribbleDelay.numberOfChunks")
            let total = try integer(fields["totalDuration"], at: "response.chunkedDribbleDelay.totalDuration")
            guard chunks >= 1 else { throw fail("response.chunkedDribbleDelay.numberOfChunks", "must be at least 1") }
            guard total >= 0 else { throw fail("response.chunkedDribbleDelay.totalDuration", "must not be negative") }
            guard case .data(let data) = result.body else {
                throw fail("response.chunkedDribbleDelay", "applies to a body, jsonBody or base64Body only")
            }
            let size = max(1, (data.count + chunks - 1) / chunks)
            result = result.dribbled(bytesPerChunk: size, interval: .milliseconds(total) / chunks)
        }
        return (.response(result), delay)
    }

    /// `fixedDelayMilliseconds` and a uniform `delayDistribution`, added together as WireMock does.
    func readDelay(_ members: [String: JSONValue]) throws(WireMockMappingError) -> StubDelay? {
        let fixed = try members["fixedDelayMilliseconds"].map { value throws(WireMockMappingError) in
            try integer(value, at: "response.fixedDelayMilliseconds")
        }
        if let fixed, fixed < 0 { throw fail("response.fixedDelayMilliseconds", "must not be negative") }
        guard let distribution = members["delayDistribution"] else { return fixed.map { .fixed(.milliseconds($0)) } }
        guard case .object(let fields) = distribution else { throw fail("response.delayDistribution", "expected an object") }
        let type = try string(fields["type"], at: "response.delayDistribution.type")
        guard type == "uniform" else {
            throw fail("response.delayDistribution.type", "\"\(type)\" delays are not supported; the stub server draws delays "
                       + "uniformly (\"uniform\" with lower and upper) or uses fixedDelayMilliseconds")
        }
        try checkFields(fields, at: "response.delayDistribution", allowed: ["type", "lower", "upper"], unsupported: [:])
        let lower = try integer(fields["lower"], at: "response.delayDistribution.lower")
        let upper = try integer(fields["upper"], at: "response.delayDistribution.upper")
        guard 0 <= lower, lower <= upper else {
            throw fail("response.delayDistribution", "needs 0 ≤ lower ≤ upper, got \(lower) and \(upper)")
        }
        let base = fixed ?? 0
        return .random(.milliseconds(base + lower)...(.milliseconds(base + upper)), seed: 0)
    }

    // MARK: Values

    func checkFields(_ members: [String: JSONValue], at path: String, allowed: Set<String>,
                     unsupported: [String: String]) throws(WireMockMappingError) {
        for key in members.keys.sorted() where !allowed.contains(key) {
            let at = path.isEmpty ? key : "\(path).\(key)"
            throw fail(at, unsupported[key] ?? "unknown field; supported here: \(allowed.sorted().joined(separator: ", "))")
        }
    }

    func string(_ value: JSONValue?, at path: String) throws(WireMockMappingError) -> String {
        guard let value else { throw fail(path, "is missing") }
        guard case .string(let text) = value else { throw fail(path, "expected a string") }
        return text
    }

    func optionalString(_ value: JSONValue?, at path: String) throws(WireMockMappingError) -> String? {
        guard let value else { return nil }
        return try string(value, at: path)
    }

    func integer(_ value: JSONValue?, at path: String) throws(WireMockMappingError) -> Int {
        guard let value else { throw fail(path, "is missing") }
        guard let number = value.intValue else { throw fail(path, "expected a whole number") }
        return number
    }

    func regex(_ pattern: String, at path: String) throws(WireMockMappingError) -> StubRegex {
        do { return try StubRegex(pattern) } catch { throw fail(path, error.description) }
    }
}
