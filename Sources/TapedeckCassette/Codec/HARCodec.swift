import Foundation

/// HAR 1.2 import and export, so cassettes travel to and from browser dev tools, mitmproxy, Charles, Polly.js and
/// mattt/Replay. Pure: sidecar bodies are read through the closure given to ``export(_:bodyData:)``.
///
/// Tapedeck-only facts ride in `_`-prefixed fields HAR allows: `_error` (a recorded transport failure, with
/// `_errorCode`), `_tlsPeerCertificates`, `_contentEncoding`.
///
/// ```swift
/// let har = try HARCodec.export(cassette) { try CassetteFile.bodyData($0, cassette: url) }
/// let imported = try HARCodec.import(har)
/// ```
public enum HARCodec {
    /// The cassette as a HAR 1.2 document; sidecar bodies are exported empty (use ``export(_:bodyData:)``).
    public static func export(_ cassette: Cassette) -> Data {
        export(cassette) { $0.inlineData ?? Data() }
    }

    /// The cassette as a HAR 1.2 document, reading each body (sidecars included) through `bodyData`.
    public static func export(_ cassette: Cassette, bodyData: (CassetteBody) throws -> Data) rethrows -> Data {
        var entries: [CassetteJSON] = []
        for interaction in cassette.interactions { entries.append(try entry(interaction, bodyData: bodyData)) }
        let document: CassetteJSON = ["log": [
            "version": "1.2",
            "creator": ["name": "Tapedeck", "version": .string("\(Cassette.currentVersion)")],
            "entries": .array(entries),
        ]]
        return CassetteJSON.serialize(document, style: .pretty) + Data("\n".utf8)
    }

    /// Reads a HAR 1.2 document's entries as interactions, in order.
    ///
    /// - Throws: ``CassetteError/invalidHAR(path:reason:)`` naming the offending field.
    public static func `import`(_ data: Data) throws(CassetteError) -> Cassette {
        let json: CassetteJSON
        do { json = try CassetteJSON.parse(data) } catch {
            throw CassetteError.invalidHAR(path: "line \(error.line), column \(error.column)", reason: error.reason)
        }
        guard let entries = json["log"]?["entries"]?.arrayValue else {
            throw CassetteError.invalidHAR(path: "log.entries", reason: "missing or not an array")
        }
        var interactions: [Interaction] = []
        for (index, entry) in entries.enumerated() {
            do {
                interactions.append(try interaction(entry, path: "log.entries[\(index)]"))
            } catch {
                if case .invalidFormat(_, let path, let reason) = error { throw CassetteError.invalidHAR(path: path, reason: reason) }
                throw error
            }
        }
        return Cassette(interactions: interactions)
    }

    // MARK: - Export

    private static func entry(_ interaction: Interaction, bodyData: (CassetteBody) throws -> Data) rethrows -> CassetteJSON {
        let request = interaction.request
        let metrics = interaction.metrics
        var requestMembers: [CassetteJSON.Member] = [
            .init("method", .string(request.method)), .init("url", .string(request.url)),
            .init("httpVersion", .string(interaction.response?.httpVersion ?? "HTTP/1.1")),
            .init("cookies", []), .init("headers", headers(request.headers)),
            .init("queryString", .array(URLParts(request.url).decodedQueryPairs.map { ["name": .string($0.name), "value": .string($0.value)] })),
        ]
        let requestBody = try bodyData(request.body)
        if !requestBody.isEmpty {
            var post = content(requestBody, mimeType: request.headers["Content-Type"] ?? "application/octet-stream", textKey: "text")
            post.removeAll { $0.key == "size" }
            requestMembers.append(.init("postData", .object(post)))
        }
        requestMembers += [.init("headersSize", -1), .init("bodySize", .integer(requestBody.count))]

        var responseMembers: [CassetteJSON.Member]
        var extra: [CassetteJSON.Member] = []
        switch interaction.outcome {
        case .response(let response):
            let body = try bodyData(response.body)
            var contentMembers = content(body, mimeType: response.headers["Content-Type"] ?? "", textKey: "text")
            if let coding = response.body.contentEncoding { contentMembers.append(.init("_contentEncoding", .string(coding))) }
            responseMembers = [
                .init("status", .integer(response.statusCode)), .init("statusText", .string(response.reasonPhrase)),
                .init("httpVersion", .string(response.httpVersion)), .init("cookies", []), .init("headers", headers(response.headers)),
                .init("content", .object(contentMembers)), .init("redirectURL", .string(response.headers["Location"] ?? "")),
                .init("headersSize", -1), .init("bodySize", .integer(body.count)),
            ]
            if let url = response.url { responseMembers.append(.init("_url", .string(url))) }
        case .failure(let failure):
            responseMembers = [
                .init("status", 0), .init("statusText", ""), .init("httpVersion", ""), .init("cookies", []), .init("headers", []),
                .init("content", ["size": 0, "mimeType": ""]), .init("redirectURL", ""), .init("headersSize", -1), .init("bodySize", -1),
            ]
            extra = [.init("_error", .string(failure.message)), .init("_errorCode", .integer(failure.code))]
            if let code = failure.transportCode { extra.append(.init("_transportCode", .integer(code))) }
            if let message = failure.transportMessage { extra.append(.init("_transportMessage", .string(message))) }
        }
        func ms(_ seconds: Double) -> CassetteJSON { .double((max(0, seconds) * 1_000_000).rounded() / 1000) }
        let connectEnd = max(metrics.connect, metrics.tlsHandshake)
        var members: [CassetteJSON.Member] = [
            .init("startedDateTime", .string(Timestamp.format(interaction.recordedAt))),
            .init("time", ms(metrics.total)),
            .init("request", .object(requestMembers)), .init("response", .object(responseMembers)), .init("cache", [:]),
            .init("timings", [
                "blocked": -1, "dns": ms(metrics.nameLookup), "connect": ms(metrics.connect - metrics.nameLookup),
                "send": 0, "wait": ms(metrics.timeToFirstByte - connectEnd), "receive": ms(metrics.total - metrics.timeToFirstByte),
                "ssl": metrics.tlsHandshake > 0 ? ms(metrics.tlsHandshake - metrics.connect) : -1,
            ]),
        ]
        if !metrics.remoteAddress.isEmpty { members.append(.init("serverIPAddress", .string(metrics.remoteAddress))) }
        if metrics.remotePort != 0 { members.append(.init("connection", .string(String(metrics.remotePort)))) }
        if !interaction.peerCertificates.isEmpty {
            members.append(.init("_tlsPeerCertificates", .array(interaction.peerCertificates.map { .string($0.base64EncodedString()) })))
        }
        if let webSocket = interaction.webSocket {
            members += [.init("_resourceType", "websocket"),
                        .init("_webSocketMessages", webSocketMessages(webSocket, startedAt: interaction.recordedAt))]
        }
        return .object(members + extra)
    }

    private static func headers(_ headers: HTTPHeaders) -> CassetteJSON {
        .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] })
    }

    private static func content(_ body: Data, mimeType: String, textKey: String) -> [CassetteJSON.Member] {
        var members: [CassetteJSON.Member] = [.init("size", .integer(body.count)), .init("mimeType", .string(mimeType))]
        if body.isEmpty { return members }
        if let text = String(validating: body, as: UTF8.self) {
            members.append(.init(textKey, .string(text)))
        } else {
            members += [.init(textKey, .string(body.base64EncodedString())), .init("encoding", "base64")]
        }
        return members
    }
}
