import Foundation
import TapedeckCore

extension WireMockMappingReader {
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

    static let faults: [String: TransportFault] = [
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
        if let problem = StubResponse.statusProblem(status) { throw fail("response.status", problem) }
        if let message = members["statusMessage"] {
            let text = try string(message, at: "response.statusMessage")
            let standard = StubResponse.reasonPhrase(for: status)
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
            // Confined to __files, as WireMock confines it (symbolic links resolved first): the mappings may come
            // through the admin API.
            let url: URL
            switch ConfinedPath.resolve(name, in: filesDirectory) {
            case .success(let resolved): url = resolved
            case .failure(let refusal): throw fail("response.bodyFileName", refusal.reason)
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  FileManager.default.isReadableFile(atPath: url.path) else {
                throw fail("response.bodyFileName", "\(Shown.quoted(name)) is not a readable file in \(filesDirectory.standardizedFileURL.path)")
            }
            result.body = .file(url)
        }
        if let dribble = members["chunkedDribbleDelay"] {
            guard case .object(let fields) = dribble else { throw fail("response.chunkedDribbleDelay", "expected an object") }
            try checkFields(fields, at: "response.chunkedDribbleDelay", allowed: ["numberOfChunks", "totalDuration"], unsupported: [:])
            let chunks = try integer(fields["numberOfChunks"], at: "response.chunkedDribbleDelay.numberOfChunks")
            let total = try integer(fields["totalDuration"], at: "response.chunkedDribbleDelay.totalDuration")
            guard chunks >= 1 else { throw fail("response.chunkedDribbleDelay.numberOfChunks", "must be at least 1") }
            if let refusal = StubDelay.refusal(total) { throw fail("response.chunkedDribbleDelay.totalDuration", refusal) }
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
        if let fixed, let refusal = StubDelay.refusal(fixed) { throw fail("response.fixedDelayMilliseconds", refusal) }
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
        if let refusal = StubDelay.refusal(upper) { throw fail("response.delayDistribution.upper", refusal) }
        let base = fixed ?? 0
        if let refusal = StubDelay.refusal(base + upper) {
            throw fail("response.delayDistribution", "with fixedDelayMilliseconds added, the longest delay \(refusal)")
        }
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
