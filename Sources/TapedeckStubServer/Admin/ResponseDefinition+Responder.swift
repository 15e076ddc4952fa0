import Foundation
import TapedeckCore

extension StubDefinition.ResponseDefinition {
    static let faultNames = ["closeWithoutResponse", "reset", "malformedStatusLine", "malformedHeaders", "malformedResponse",
                             "noResponse", "partialBody"]

    func makeResponder(_ fail: DefinitionFailure) throws(StubDefinitionError) -> StubResponder {
        let bodies = [("body", body != nil), ("base64Body", base64Body != nil), ("jsonBody", jsonBody != nil), ("bodyFile", bodyFile != nil)]
            .filter(\.1).map(\.0)
        if fault == "malformedResponse" {
            guard bodies.count == 1, jsonBody == nil, bodyFile == nil, status == nil else {
                throw fail("response", "the malformedResponse fault sends exactly the bytes of one body or base64Body, and no status")
            }
            if let base64Body {
                guard let data = Data(base64Encoded: base64Body) else { throw fail("response.base64Body", "is not valid base64") }
                return .fault(.malformedResponse(data))
            }
            return .fault(.malformedResponse(Data((body ?? "").utf8)))
        }
        if let fault {
            guard bodies.isEmpty, status == nil else { throw fail("response", "a fault sends no status or body; remove \((bodies + (status == nil ? [] : ["status"])).joined(separator: ", "))") }
            return .fault(try makeFault(fault, fail))
        }
        guard bodies.count <= 1 else { throw fail("response", "give at most one of body, base64Body, jsonBody, bodyFile, not \(bodies.joined(separator: " and "))") }
        let status = self.status ?? 200
        guard (100...599).contains(status) else { throw fail("response.status", "must be between 100 and 599, got \(status)") }
        var headers = HTTPHeaders()
        for name in (self.headers ?? [:]).keys.sorted() { headers.add(name: name, value: self.headers![name]!) }
        if template == true {
            guard base64Body == nil, jsonBody == nil, bodyFile == nil else {
                throw fail("response.template", "templates apply to a text \"body\" only")
            }
            do {
                return .template(try ResponseTemplate(status: status, headers: headers, body: body ?? ""))
            } catch {
                throw fail("response.body", error.description)
            }
        }
        var response = StubResponse(status: status, headers: headers)
        if let body { response.body = .data(Data(body.utf8)) }
        if let base64Body {
            guard let data = Data(base64Encoded: base64Body) else { throw fail("response.base64Body", "is not valid base64") }
            response.body = .data(data)
        }
        if let jsonBody {
            response.body = .data(jsonBody.encoded)
            if response.headers["Content-Type"] == nil { response.headers["Content-Type"] = "application/json" }
        }
        if let bodyFile {
            guard FileManager.default.isReadableFile(atPath: bodyFile) else { throw fail("response.bodyFile", "cannot read \"\(bodyFile)\"") }
            response.body = .file(URL(fileURLWithPath: bodyFile))
        }
        if let chunked {
            guard chunked.bytesPerChunk > 0 else { throw fail("response.chunked.bytesPerChunk", "must be at least 1, got \(chunked.bytesPerChunk)") }
            guard (chunked.intervalMilliseconds ?? 0) >= 0 else { throw fail("response.chunked.intervalMilliseconds", "must not be negative") }
            guard bodyFile == nil else { throw fail("response.chunked", "cannot dribble a bodyFile; use body, base64Body or jsonBody") }
            response = response.dribbled(bytesPerChunk: chunked.bytesPerChunk, interval: .milliseconds(chunked.intervalMilliseconds ?? 0))
        }
        return .response(response)
    }

    private func makeFault(_ name: String, _ fail: DefinitionFailure) throws(StubDefinitionError) -> StubFault {
        switch name {
        case "closeWithoutResponse": return .closeWithoutResponse
        case "reset": return .reset
        case "malformedStatusLine": return .malformedStatusLine
        case "malformedHeaders": return .malformedHeaders
        case "noResponse": return .noResponse
        case "partialBody":
            guard let sent = partialBodySent, let declared = partialBodyDeclared, 0 < sent, sent < declared else {
                throw fail("response", "the partialBody fault needs partialBodySent and partialBodyDeclared with 0 < sent < declared")
            }
            return .partialBody(sent: sent, declared: declared)
        default:
            throw fail("response.fault", "unknown fault \"\(name)\"; use one of \(Self.faultNames.joined(separator: ", "))")
        }
    }
}

extension StubDefinition {
    /// The definition of `stub`, for listings. A closure responder has no JSON form: its `response` is absent.
    public init(_ stub: Stub) {
        self.init(id: stub.id, name: stub.name, priority: stub.priority == Stub.defaultPriority ? nil : stub.priority,
                  request: RequestDefinition(stub.matcher), response: ResponseDefinition(stub.responder))
        if let kind = stub.delay?.kind {
            switch kind {
            case .fixed(let duration): delay = DelayDefinition(milliseconds: Int(duration.nanoseconds / 1_000_000))
            case .random(let range, let seed):
                delay = DelayDefinition(minMilliseconds: Int(range.lowerBound.nanoseconds / 1_000_000),
                                        maxMilliseconds: Int(range.upperBound.nanoseconds / 1_000_000), seed: seed)
            }
        }
        scenario = stub.scenario.map { ScenarioDefinition(name: $0.scenario, requiredState: $0.requiredState, newState: $0.newState) }
        summary = stub.summary
    }
}

extension StubDefinition.RequestDefinition {
    init(_ matcher: RequestPattern) {
        self.init(method: matcher.method?.rawValue)
        switch matcher.path {
        case .exact(let path): self.path = path
        case .template(let template): pathTemplate = template
        case .regex(let regex): pathRegex = regex.pattern
        case nil: break
        }
        if !matcher.query.isEmpty { query = matcher.query.mapValues(StubDefinition.ValueDefinition.init) }
        if !matcher.headers.isEmpty { headers = matcher.headers.mapValues(StubDefinition.ValueDefinition.init) }
        body = matcher.body.map(StubDefinition.BodyDefinition.init)
    }
}

extension StubDefinition.ValueDefinition {
    init(_ pattern: ValuePattern) {
        switch pattern {
        case .equalTo(let text): self.init(equalTo: text)
        case .contains(let text): self.init(contains: text)
        case .matches(let regex): self.init(matches: regex.pattern)
        case .present: self.init(present: true)
        case .absent: self.init(absent: true)
        }
    }
}

extension StubDefinition.BodyDefinition {
    init(_ pattern: BodyPattern) {
        switch pattern {
        case .equalTo(let data):
            if let text = String(data: data, encoding: .utf8) { self.init(equalTo: text) } else { self.init(base64: data.base64EncodedString()) }
        case .contains(let text): self.init(contains: text)
        case .matches(let regex): self.init(matches: regex.pattern)
        case .json(let json): self.init(json: json)
        case .jsonPartial(let json): self.init(jsonPartial: json)
        case .form(let fields): self.init(form: fields.mapValues(StubDefinition.ValueDefinition.init))
        case .multipart(let parts):
            self.init(multipart: parts.map {
                StubDefinition.PartDefinition(name: $0.name, fileName: $0.fileName.map(StubDefinition.ValueDefinition.init),
                                              contentType: $0.contentType.map(StubDefinition.ValueDefinition.init),
                                              body: $0.body.map(StubDefinition.ValueDefinition.init))
            })
        }
    }
}

extension StubDefinition.ResponseDefinition {
    /// `nil` for closures, which have no JSON form.
    init?(_ responder: StubResponder) {
        switch responder {
        case .handler: return nil
        case .fault(let fault):
            switch fault {
            case .partialBody(let sent, let declared): self.init(fault: "partialBody", partialBodySent: sent, partialBodyDeclared: declared)
            case .malformedResponse(let bytes): self.init(base64Body: bytes.base64EncodedString(), fault: "malformedResponse")
            case .closeWithoutResponse: self.init(fault: "closeWithoutResponse")
            case .reset: self.init(fault: "reset")
            case .malformedStatusLine: self.init(fault: "malformedStatusLine")
            case .malformedHeaders: self.init(fault: "malformedHeaders")
            case .noResponse: self.init(fault: "noResponse")
            }
        case .template(let template):
            self.init(status: template.status, headers: Dictionary(template.headerTemplates.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                      body: template.bodyTemplate, template: true)
        case .response(let response):
            self.init(status: response.status,
                      headers: response.headers.isEmpty ? nil : Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
            switch response.body {
            case .empty, .generated, .generatedRange: break
            case .data(let data):
                if let text = String(data: data, encoding: .utf8) { body = text } else { base64Body = data.base64EncodedString() }
            case .file(let url): bodyFile = url.path
            case .chunked(let dribble):
                if dribble.generatedLength == nil { base64Body = dribble.data.base64EncodedString() }
                chunked = StubDefinition.ChunkedDefinition(bytesPerChunk: dribble.chunkSize, intervalMilliseconds: Int(dribble.interval.nanoseconds / 1_000_000))
            }
        }
    }
}
