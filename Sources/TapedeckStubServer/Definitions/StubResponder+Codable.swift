import Foundation
import TapedeckCore

/// A responder's JSON form, the `response` of a stub definition: `status` (default 200), `headers` (name → value),
/// at most one body source — `body` (text), `base64Body`, `jsonBody` (sets `Content-Type: application/json` unless
/// given) or `bodyFile` (a file inside the folder the definitions were read from, see
/// ``Stub/decodeList(_:filesDirectory:)``) — and `chunked` (`{"bytesPerChunk", "intervalMilliseconds"}`) to dribble
/// it; with `template: true`, `body` and header values are ``ResponseTemplate``s. Or a `fault` instead, in
/// `TransportFault`'s JSON form (`partialBodySent`/`partialBodyDeclared`, `status`, or the `body`/`base64Body`
/// bytes of `malformedResponse` beside it).
/// A ``StubResponder/handler(_:)`` closure has no JSON form.
extension CodingUserInfoKey {
    /// The folder a stub definition's `bodyFile` must stay in (a `URL`); absent for the admin API.
    static let stubFilesDirectory = CodingUserInfoKey(rawValue: "tapedeck.stubFilesDirectory")!
}

extension StubResponder: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case status, headers, body, base64Body, jsonBody, bodyFile, template, chunked, fault, partialBodySent, partialBodyDeclared
    }

    /// `chunked`: `bytesPerChunk` bytes every `intervalMilliseconds`.
    private struct Chunking: Codable {
        var bytesPerChunk: Int
        var intervalMilliseconds: Int?
    }

    /// Whether the responder can be written as a `response`: every responder but a closure and a WebSocket stub
    /// (which ``Stub`` writes as its `webSocket` member).
    var hasJSONForm: Bool {
        switch self {
        case .handler, .webSocket: return false
        case .response, .template, .fault: return true
        }
    }

    /// Decodes a response, a template or a fault, refusing conflicting or out-of-range fields.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.fault) {
            self = .fault(try TransportFault(from: decoder))
            return
        }
        let status = try container.decodeIfPresent(Int.self, forKey: .status)
        let headers = try container.decodeIfPresent([String: String].self, forKey: .headers)
        let body = try container.decodeIfPresent(String.self, forKey: .body)
        let base64Body = try container.decodeIfPresent(String.self, forKey: .base64Body)
        let jsonBody = try container.decodeIfPresent(JSONValue.self, forKey: .jsonBody)
        let bodyFile = try container.decodeIfPresent(String.self, forKey: .bodyFile)
        let template = try container.decodeIfPresent(Bool.self, forKey: .template)
        let chunked = try container.decodeIfPresent(Chunking.self, forKey: .chunked)
        func fail(_ reason: String, _ fields: String...) -> DecodingError {
            .definition(reason, at: decoder.codingPath, fields)
        }
        func base64Data() throws -> Data? {
            guard let base64Body else { return nil }
            guard let data = Data(base64Encoded: base64Body) else { throw fail("is not valid base64", "base64Body") }
            return data
        }
        let bodies = [("body", body != nil), ("base64Body", base64Body != nil), ("jsonBody", jsonBody != nil), ("bodyFile", bodyFile != nil)]
            .filter(\.1).map(\.0)
        guard bodies.count <= 1 else { throw fail("give at most one of body, base64Body, jsonBody, bodyFile, not \(bodies.joined(separator: " and "))") }
        let code = status ?? 200
        if let problem = StubResponse.statusProblem(code) { throw fail(problem, "status") }
        var fields = HTTPHeaders()
        for name in (headers ?? [:]).keys.sorted() { fields.add(name: name, value: headers![name]!) }
        if template == true {
            guard base64Body == nil, jsonBody == nil, bodyFile == nil else { throw fail("templates apply to a text \"body\" only", "template") }
            do {
                self = .template(try ResponseTemplate(status: code, headers: fields, body: body ?? ""))
            } catch {
                throw fail(error.description, "body")
            }
            return
        }
        var response = StubResponse(status: code, headers: fields)
        if let body { response.body = .data(Data(body.utf8)) }
        if let data = try base64Data() { response.body = .data(data) }
        if let jsonBody {
            response.body = .data(jsonBody.encoded)
            if response.headers["Content-Type"] == nil { response.headers["Content-Type"] = "application/json" }
        }
        if let bodyFile {
            guard let folder = decoder.userInfo[.stubFilesDirectory] as? URL else {
                throw fail("\(Shown.quoted(bodyFile)) cannot be read: stubs from the admin API name no files (use body, base64Body or jsonBody)", "bodyFile")
            }
            switch ConfinedPath.resolve(bodyFile, in: folder) {
            case .success(let file): response.body = .file(file)
            case .failure(let refusal): throw fail(refusal.reason, "bodyFile")
            }
        }
        if let chunked {
            guard chunked.bytesPerChunk > 0 else { throw fail("must be at least 1, got \(chunked.bytesPerChunk)", "chunked", "bytesPerChunk") }
            if let refusal = StubDelay.refusal(chunked.intervalMilliseconds ?? 0) { throw fail(refusal, "chunked", "intervalMilliseconds") }
            guard bodyFile == nil else { throw fail("cannot dribble a bodyFile; use body, base64Body or jsonBody", "chunked") }
            response = response.dribbled(bytesPerChunk: chunked.bytesPerChunk, interval: .milliseconds(chunked.intervalMilliseconds ?? 0))
        }
        self = .response(response)
    }

    /// Encodes the responder as a definition would give it; a closure cannot be encoded and throws
    /// `EncodingError.invalidValue` (``Stub`` leaves its `response` out instead).
    public func encode(to encoder: any Encoder) throws {
        if case .fault(let fault) = self { return try fault.encode(to: encoder) }
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .handler:
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "a closure responder has no JSON form"))
        case .webSocket:
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "a WebSocket stub is a stub's webSocket member, not a response"))
        case .fault: break
        case .template(let template):
            try container.encode(template.status, forKey: .status)
            try container.encode(Dictionary(template.headerTemplates.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), forKey: .headers)
            try container.encode(template.bodyTemplate, forKey: .body)
            try container.encode(true, forKey: .template)
        case .response(let response):
            try container.encode(response.status, forKey: .status)
            if !response.headers.isEmpty {
                try container.encode(Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), forKey: .headers)
            }
            switch response.body {
            case .empty, .generated, .generatedRange: break
            case .data(let data):
                if let text = String(data: data, encoding: .utf8) {
                    try container.encode(text, forKey: .body)
                } else {
                    try container.encode(data.base64EncodedString(), forKey: .base64Body)
                }
            case .file(let url): try container.encode(url.path, forKey: .bodyFile)
            case .chunked(let dribble):
                if dribble.generatedLength == nil { try container.encode(dribble.data.base64EncodedString(), forKey: .base64Body) }
                try container.encode(Chunking(bytesPerChunk: dribble.chunkSize, intervalMilliseconds: Int(dribble.interval.nanoseconds / 1_000_000)),
                                     forKey: .chunked)
            }
        }
    }
}
