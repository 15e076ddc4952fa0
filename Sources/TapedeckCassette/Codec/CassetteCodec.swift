import Foundation
import TapedeckCore

/// Reads and writes cassette files (see `Cassettes/FORMAT.md`): format version 1, version 2 for a cassette with
/// WebSocket conversations (the same, plus an interaction's `webSocket` member), and version 3 for one that stores its
/// replay rules (a top-level `replay` member). Pure: bytes in, values out, no I/O.
///
/// Keys are written in a fixed order and headers in recorded order, so encoding the same interactions always
/// yields the same bytes.
///
/// ```swift
/// let data = CassetteCodec.encode(cassette)
/// let again = try CassetteCodec.decode(data, file: "Cassettes/login.json")
/// ```
public enum CassetteCodec {
    /// The cassette as JSON (two-space indent, trailing newline), in its ``Cassette/formatVersion``.
    public static func encode(_ cassette: Cassette) -> Data {
        var writer = JSONWriter(style: .pretty, capacity: 512 * max(1, cassette.interactions.count))
        var document = writer.beginObject(level: 0)
        writer.member("version", .integer(cassette.formatVersion), in: &document)
        ReplayRulesFormat.write(cassette.replayRules, in: &document, of: &writer)
        if let salt = cassette.redactionSalt {
            writer.key("redaction", in: &document)
            var redaction = writer.beginObject(level: document.childLevel)
            writer.member("salt", string: salt.description, in: &redaction)
            writer.end(redaction)
        }
        writer.key("interactions", in: &document)
        var interactions = writer.beginArray(level: document.childLevel)
        for interaction in cassette.interactions {
            writer.nextElement(in: &interactions)
            write(interaction, to: &writer, level: interactions.childLevel)
        }
        writer.end(interactions)
        writer.end(document)
        writer.output.append(0x0A)
        return writer.output.data
    }

    /// Reads a cassette of format version 1, 2 or 3; `file` names it in errors.
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
        guard let number = version.intValue, Cassette.readableVersions.contains(number) else {
            let found: String
            switch version {
            case .number(let text): found = Shown.truncated(text)
            case .string(let text): found = Shown.quoted(text)
            default: found = Shown.truncated(String(decoding: CassetteJSON.serialize(version), as: UTF8.self))
            }
            throw CassetteError.unsupportedVersion(file: file, found: found, supported: Cassette.readableVersions.upperBound)
        }
        let elements = try root.array("interactions")
        var interactions: [Interaction] = []
        interactions.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let interaction = try decodeInteraction(element, path: "interactions[\(index)]", file: file)
            if interaction.webSocket != nil, number < Cassette.webSocketVersion {
                throw CassetteError.invalidFormat(
                    file: file, path: "interactions[\(index)].webSocket",
                    reason: "a WebSocket conversation needs format version \(Cassette.webSocketVersion), and the file says \(number)")
            }
            interactions.append(interaction)
        }
        var rules = ReplayRules()
        if let replay = json["replay"] {
            guard number >= Cassette.replayRulesVersion else {
                throw CassetteError.invalidFormat(
                    file: file, path: "replay",
                    reason: "stored replay rules need format version \(Cassette.replayRulesVersion), and the file says \(number)")
            }
            rules = try ReplayRulesFormat.decode(replay, file: file)
        }
        var salt: RedactionSalt?
        if let redaction = json["redaction"] {
            let reader = FieldReader(redaction, path: "redaction", file: file)
            let text = try reader.string("salt")
            guard let parsed = RedactionSalt(text) else {
                throw reader.invalid("salt", "expected 32 hex digits, found \(Shown.quoted(text))")
            }
            salt = parsed
        }
        let cassette = Cassette(interactions: interactions, redactionSalt: salt, replayRules: rules)
        if StandIn.mayContain(data) { try StandInCheck.validate(cassette, file: file) }
        return cassette
    }

    /// One interaction as a JSON value (the element of `interactions`).
    public static func encode(_ interaction: Interaction) -> CassetteJSON {
        var writer = JSONWriter(style: .compact)
        write(interaction, to: &writer, level: 0)
        // The writer's own output always parses.
        return (try? CassetteJSON.parse(writer.output.data)) ?? .null
    }

    /// Writes one interaction straight to `writer`, with no ``CassetteJSON`` tree in between: this runs for every
    /// recorded interaction and for every interaction of a saved cassette.
    static func write(_ interaction: Interaction, to writer: inout JSONWriter, level: Int) {
        var object = writer.beginObject(level: level)
        writer.member("recordedAt", string: Timestamp.format(interaction.recordedAt), in: &object)
        writer.key("request", in: &object)
        write(interaction.request, to: &writer, level: object.childLevel)
        switch interaction.outcome {
        case .response(let response):
            writer.key("response", in: &object)
            write(response, to: &writer, level: object.childLevel)
        case .failure(let failure):
            writer.key("error", in: &object)
            write(failure, to: &writer, level: object.childLevel)
        }
        writer.key("timing", in: &object)
        write(interaction.metrics, to: &writer, level: object.childLevel)
        if !interaction.peerCertificates.isEmpty {
            writer.key("tls", in: &object)
            var tls = writer.beginObject(level: object.childLevel)
            writer.member("peerCertificates", .array(interaction.peerCertificates.map { .string($0.base64EncodedString()) }), in: &tls)
            writer.end(tls)
        }
        if let webSocket = interaction.webSocket { WebSocketTranscriptFormat.write(webSocket, in: &object, of: &writer) }
        writer.end(object)
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
            outcome = .failure(try decodeFailure(reader))
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
        let webSocket = try json["webSocket"].map { value throws(CassetteError) in
            try WebSocketTranscriptFormat.decode(value, path: fields.at("webSocket"), file: file)
        }
        return Interaction(request: request, outcome: outcome, metrics: metrics ?? TransferMetrics(),
                           peerCertificates: certificates, recordedAt: recordedAt, webSocket: webSocket)
    }

    static func write(_ request: Interaction.Request, to writer: inout JSONWriter, level: Int) {
        var object = writer.beginObject(level: level)
        writer.member("method", string: request.method, in: &object)
        writer.member("url", string: request.url, in: &object)
        writer.key("headers", in: &object)
        write(request.headers, to: &writer, level: object.childLevel)
        BodyFormat.write(request.body, as: "body", in: &object, of: &writer)
        writer.end(object)
    }

    static func decodeRequest(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> Interaction.Request {
        let fields = FieldReader(json, path: path, file: file)
        return Interaction.Request(
            method: try fields.string("method"), url: try fields.string("url"), headers: try fields.headers("headers"),
            body: try BodyFormat.decode(json["body"], at: fields.at("body"), file: file))
    }

    static func write(_ response: Interaction.Response, to writer: inout JSONWriter, level: Int) {
        var object = writer.beginObject(level: level)
        writer.member("status", integer: Int64(response.statusCode), in: &object)
        writer.member("reason", string: response.reasonPhrase, in: &object)
        writer.member("httpVersion", string: response.httpVersion, in: &object)
        if let url = response.url { writer.member("url", string: url, in: &object) }
        writer.key("headers", in: &object)
        write(response.headers, to: &writer, level: object.childLevel)
        BodyFormat.write(response.body, as: "body", in: &object, of: &writer)
        if response.isTemplated { writer.member("templated", .bool(true), in: &object) }
        if let chunks = response.chunks { write(chunks, to: &writer, in: &object) }
        if let interruption = response.interruption {
            writer.key("interruptedBy", in: &object)
            write(interruption, to: &writer, level: object.childLevel)
        }
        writer.end(object)
    }

    /// `"chunks": [[bytes, seconds], …]`, one pair per line.
    static func write(_ chunks: [TimedChunk], to writer: inout JSONWriter, in object: inout JSONWriter.Container) {
        writer.key("chunks", in: &object)
        var array = writer.beginArray(level: object.childLevel)
        for chunk in chunks {
            writer.nextElement(in: &array)
            writer.output.append(UInt8(ascii: "["))
            writer.writeInteger(Int64(chunk.byteCount))
            writer.output.append(utf8: ", ")
            writer.write(.double(chunk.at), level: 0)
            writer.output.append(UInt8(ascii: "]"))
        }
        writer.end(array)
    }

    static func decodeChunks(_ json: CassetteJSON?, body: CassetteBody, path: String, file: String) throws(CassetteError) -> [TimedChunk]? {
        guard let json, json != .null else { return nil }
        guard let pairs = json.arrayValue else {
            throw CassetteError.invalidFormat(file: file, path: path, reason: "expected an array of [bytes, seconds] pairs")
        }
        var chunks: [TimedChunk] = []
        chunks.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            guard let items = pair.arrayValue, items.count == 2, let bytes = items[0].intValue, let at = items[1].doubleValue else {
                throw CassetteError.invalidFormat(file: file, path: "\(path)[\(index)]", reason: "expected [bytes, seconds] numbers")
            }
            chunks.append(TimedChunk(byteCount: bytes, at: at))
        }
        if let problem = TimedChunk.problem(in: chunks, total: body.byteCount) {
            throw CassetteError.invalidFormat(file: file, path: path, reason: problem)
        }
        return chunks
    }

    static func decodeResponse(_ json: CassetteJSON, path: String, file: String) throws(CassetteError) -> Interaction.Response {
        let fields = FieldReader(json, path: path, file: file)
        let body = try BodyFormat.decode(json["body"], at: fields.at("body"), file: file)
        return Interaction.Response(
            statusCode: try fields.int("status"), reasonPhrase: try fields.optionalString("reason") ?? "",
            httpVersion: try fields.optionalString("httpVersion") ?? "HTTP/1.1", url: try fields.optionalString("url"),
            headers: try fields.headers("headers"), body: body, isTemplated: try fields.optionalBool("templated") ?? false,
            chunks: try decodeChunks(json["chunks"], body: body, path: fields.at("chunks"), file: file),
            interruption: try json["interruptedBy"].map { value throws(CassetteError) in
                try decodeFailure(FieldReader(value, path: fields.at("interruptedBy"), file: file))
            })
    }

    static func decodeFailure(_ reader: FieldReader) throws(CassetteError) -> Interaction.Failure {
        Interaction.Failure(
            code: try reader.int("code"), message: try reader.string("message"),
            transportCode: try reader.optionalInt("transportCode"), transportMessage: try reader.optionalString("transportMessage"))
    }

    static func write(_ failure: Interaction.Failure, to writer: inout JSONWriter, level: Int) {
        var object = writer.beginObject(level: level)
        writer.member("code", .integer(failure.code), in: &object)
        if let name = URLErrorNames.knownName(failure.code) { writer.member("name", .string(name), in: &object) }
        writer.member("message", .string(failure.message), in: &object)
        if let code = failure.transportCode { writer.member("transportCode", .integer(code), in: &object) }
        if let message = failure.transportMessage { writer.member("transportMessage", .string(message), in: &object) }
        writer.end(object)
    }

    /// Headers as `[name, value]` pairs, in recorded order.
    static func write(_ headers: HTTPHeaders, to writer: inout JSONWriter, level: Int) {
        var pairs = writer.beginArray(level: level)
        for field in headers {
            writer.nextElement(in: &pairs)
            var pair = writer.beginArray(level: pairs.childLevel)
            writer.nextElement(in: &pair)
            writer.writeString(field.name)
            writer.nextElement(in: &pair)
            writer.writeString(field.value)
            writer.end(pair)
        }
        writer.end(pairs)
    }

    static func write(_ metrics: TransferMetrics, to writer: inout JSONWriter, level: Int) {
        var object = writer.beginObject(level: level)
        writer.member("nameLookup", double: metrics.nameLookup, in: &object)
        writer.member("connect", double: metrics.connect, in: &object)
        writer.member("tlsHandshake", double: metrics.tlsHandshake, in: &object)
        writer.member("timeToFirstByte", double: metrics.timeToFirstByte, in: &object)
        writer.member("total", double: metrics.total, in: &object)
        writer.member("bytesSent", integer: metrics.bytesSent, in: &object)
        writer.member("bytesReceived", integer: metrics.bytesReceived, in: &object)
        writer.member("connectionReused", .bool(metrics.connectionReused), in: &object)
        writer.member("httpVersion", string: metrics.httpVersion, in: &object)
        writer.member("remoteAddress", string: metrics.remoteAddress, in: &object)
        writer.member("remotePort", integer: Int64(metrics.remotePort), in: &object)
        writer.member("redirectCount", integer: Int64(metrics.redirectCount), in: &object)
        writer.end(object)
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
