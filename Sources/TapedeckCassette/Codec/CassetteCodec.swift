import Foundation

/// Reads and writes format v1 cassette files (see `Cassettes/FORMAT.md`). Pure: bytes in, values out, no I/O.
///
/// Keys are written in a fixed order and headers in recorded order, so encoding the same interactions always
/// yields the same bytes.
///
/// ```swift
/// let data = CassetteCodec.encode(cassette)
/// let again = try CassetteCodec.decode(data, file: "Cassettes/login.json")
/// ```
public enum CassetteCodec {
    /// The cassette as format v1 JSON (two-space indent, trailing newline).
    public static func encode(_ cassette: Cassette) -> Data {
        let document: CassetteJSON = .object([
            .init("version", .integer(Cassette.currentVersion)),
            .init("interactions", .array(cassette.interactions.map(encode))),
        ])
        var writer = JSONByteWriter(style: .pretty, capacity: 512 * max(1, cassette.interactions.count))
        writer.write(document, level: 0)
        writer.output.append(0x0A)
        return Data(writer.output)
    }

    /// Reads a format v1 cassette; `file` names it in errors.
    ///
    /// - Throws: ``CassetteError/corrupt(file:line:column:reason:)`` for invalid JSON,
    ///   ``CassetteError/unsupportedVersion(file:found:supported:)`` for another version, and
    ///   ``CassetteError/invalidFormat(file:path:reason:)`` for JSON that is not a cassette.
    public static func decode(_ data: Data, file: String = "<memory>") throws(CassetteError) -> Cassette {
        let json: CassetteJSON
        do {
            json = try CassetteJSON.parse(data)
        } catch {
            throw CassetteError.corrupt(file: file, line: error.line, column: error.column, reason: error.reason)
        }
        let root = FieldReader(json, path: "", file: file)
        let version = try root.value("version")
        guard version.intValue == Cassette.currentVersion else {
            let found: String
            switch version {
            case .number(let text): found = text
            case .string(let text): found = "\"\(text)\""
            default: found = String(decoding: CassetteJSON.serialize(version), as: UTF8.self)
            }
            throw CassetteError.unsupportedVersion(file: file, found: found, supported: Cassette.currentVersion)
        }
        let elements = try root.array("interactions")
        var interactions: [Interaction] = []
        interactions.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            interactions.append(try decodeInteraction(element, path: "interactions[\(index)]", file: file))
        }
        return Cassette(interactions: interactions)
    }

    /// One interaction as a JSON value (the element of `interactions`).
    public static func encode(_ interaction: Interaction) -> CassetteJSON {
        var members: [CassetteJSON.Member] = [
            .init("recordedAt", .string(Timestamp.format(interaction.recordedAt))),
            .init("request", encode(interaction.request)),
        ]
        switch interaction.outcome {
        case .response(let response): members.append(.init("response", encode(response)))
        case .failure(let failure): members.append(.init("error", encode(failure)))
        }
        members.append(.init("timing", encode(interaction.metrics)))
        if !interaction.peerCertificates.isEmpty {
            members.append(.init("tls", ["peerCertificates": .array(interaction.peerCertificates.map { .string($0.base64EncodedString()) })]))
        }
        return .object(members)
    }

    /// Reads one interaction; `path` and `file` locate it in errors.
    public static func decodeInteraction(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> Interaction {
        let fields = FieldReader(json, path: path, file: file)
        let stamp = try fields.string("recordedAt")
        guard let recordedAt = Timestamp.parse(stamp) else {
            throw fields.invalid("recordedAt", "expected an ISO 8601 UTC time such as 2026-01-31T12:00:00.000Z")
        }
        let request = try decodeRequest(try fields.value("request"), path: fields.at("request"), file: file)
        let outcome: Interaction.Outcome
        if let response = json["response"] {
            outcome = .response(try decodeResponse(response, path: fields.at("response"), file: file))
        } else if let failure = json["error"] {
            let reader = FieldReader(failure, path: fields.at("error"), file: file)
            outcome = .failure(Interaction.Failure(
                code: try reader.int("code"), message: try reader.string("message"),
                transportCode: try reader.optionalInt("transportCode"), transportMessage: try reader.optionalString("transportMessage")))
        } else {
            throw fields.invalid("response", "an interaction needs a \"response\" or an \"error\"")
        }
        let metrics = try json["timing"].map { timing throws(CassetteError) in try decodeMetrics(timing, path: fields.at("timing"), file: file) }
        var certificates: [Data] = []
        if let tls = json["tls"] {
            let reader = FieldReader(tls, path: fields.at("tls"), file: file)
            for (index, element) in try reader.array("peerCertificates").enumerated() {
                guard let data = element.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
                    throw reader.invalid("peerCertificates[\(index)]", "expected base64 DER")
                }
                certificates.append(data)
            }
        }
        return Interaction(request: request, outcome: outcome, metrics: metrics ?? TransferMetrics(),
                           peerCertificates: certificates, recordedAt: recordedAt)
    }

    static func encode(_ request: Interaction.Request) -> CassetteJSON {
        var members: [CassetteJSON.Member] = [
            .init("method", .string(request.method)),
            .init("url", .string(request.url)),
            .init("headers", encode(request.headers)),
        ]
        if let body = BodyFormat.encode(request.body) { members.append(.init("body", body)) }
        return .object(members)
    }

    static func decodeRequest(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> Interaction.Request {
        let fields = FieldReader(json, path: path, file: file)
        return Interaction.Request(
            method: try fields.string("method"), url: try fields.string("url"), headers: try fields.headers("headers"),
            body: try BodyFormat.decode(json["body"], at: fields.at("body"), file: file))
    }

    static func encode(_ response: Interaction.Response) -> CassetteJSON {
        var members: [CassetteJSON.Member] = [
            .init("status", .integer(response.statusCode)),
            .init("reason", .string(response.reasonPhrase)),
            .init("httpVersion", .string(response.httpVersion)),
        ]
        if let url = response.url { members.append(.init("url", .string(url))) }
        members.append(.init("headers", encode(response.headers)))
        if let body = BodyFormat.encode(response.body) { members.append(.init("body", body)) }
        return .object(members)
    }

    static func decodeResponse(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> Interaction.Response {
        let fields = FieldReader(json, path: path, file: file)
        return Interaction.Response(
            statusCode: try fields.int("status"), reasonPhrase: try fields.optionalString("reason") ?? "",
            httpVersion: try fields.optionalString("httpVersion") ?? "HTTP/1.1", url: try fields.optionalString("url"),
            headers: try fields.headers("headers"), body: try BodyFormat.decode(json["body"], at: fields.at("body"), file: file))
    }

    static func encode(_ failure: Interaction.Failure) -> CassetteJSON {
        var members: [CassetteJSON.Member] = [.init("code", .integer(failure.code))]
        if let name = URLErrorNames.name(of: failure.code) { members.append(.init("name", .string(name))) }
        members.append(.init("message", .string(failure.message)))
        if let code = failure.transportCode { members.append(.init("transportCode", .integer(code))) }
        if let message = failure.transportMessage { members.append(.init("transportMessage", .string(message))) }
        return .object(members)
    }

    static func encode(_ headers: HTTPHeaders) -> CassetteJSON {
        .array(headers.map { .array([.string($0.name), .string($0.value)]) })
    }

    static func encode(_ metrics: TransferMetrics) -> CassetteJSON {
        .object([
            .init("nameLookup", .double(metrics.nameLookup)),
            .init("connect", .double(metrics.connect)),
            .init("tlsHandshake", .double(metrics.tlsHandshake)),
            .init("timeToFirstByte", .double(metrics.timeToFirstByte)),
            .init("total", .double(metrics.total)),
            .init("bytesSent", .integer(metrics.bytesSent)),
            .init("bytesReceived", .integer(metrics.bytesReceived)),
            .init("connectionReused", .bool(metrics.connectionReused)),
            .init("httpVersion", .string(metrics.httpVersion)),
            .init("remoteAddress", .string(metrics.remoteAddress)),
            .init("remotePort", .integer(metrics.remotePort)),
            .init("redirectCount", .integer(metrics.redirectCount)),
        ])
    }

    static func decodeMetrics(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> TransferMetrics {
        let fields = FieldReader(json, path: path, file: file)
        return TransferMetrics(
            nameLookup: try fields.double("nameLookup"), connect: try fields.double("connect"),
            tlsHandshake: try fields.double("tlsHandshake"), timeToFirstByte: try fields.double("timeToFirstByte"),
            total: try fields.double("total"), bytesSent: Int64(try fields.optionalInt("bytesSent") ?? 0),
            bytesReceived: Int64(try fields.optionalInt("bytesReceived") ?? 0),
            connectionReused: json["connectionReused"]?.boolValue ?? false,
            httpVersion: try fields.optionalString("httpVersion") ?? "", remoteAddress: try fields.optionalString("remoteAddress") ?? "",
            remotePort: try fields.optionalInt("remotePort") ?? 0, redirectCount: try fields.optionalInt("redirectCount") ?? 0)
    }
}

/// Readable names of common `URLError` codes, written beside the number for people reading a cassette.
enum URLErrorNames {
    static let names: [Int: String] = [
        -999: "cancelled", -1000: "badURL", -1001: "timedOut", -1002: "unsupportedURL", -1003: "cannotFindHost",
        -1004: "cannotConnectToHost", -1005: "networkConnectionLost", -1006: "dnsLookupFailed",
        -1007: "httpTooManyRedirects", -1009: "notConnectedToInternet", -1011: "badServerResponse",
        -1017: "cannotParseResponse", -1100: "fileDoesNotExist", -1200: "secureConnectionFailed",
        -1202: "serverCertificateUntrusted", -1206: "clientCertificateRequired", -3003: "cannotWriteToFile",
    ]

    static func name(of code: Int) -> String? { names[code] }
}
