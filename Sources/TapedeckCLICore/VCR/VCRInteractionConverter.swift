import Foundation
import TapedeckCassette
import TapedeckCore
import Yams

/// One VCR interaction (`request`, `response`, and for Ruby VCR `recorded_at`) as a Tapedeck ``Interaction``.
struct InteractionConverter {
    let reader: YAMLReader
    let flavour: VCRImport.Flavour
    let recordedAt: Date
    /// Response bodies decompressed so far.
    private(set) var decompressed = 0
    /// Response bodies the recording client had decoded already, though they still announce their coding.
    private(set) var storedDecoded = 0
    /// Bodies kept as recorded because they could not be decoded, each with its path and why.
    private(set) var notes: [String] = []

    init(reader: YAMLReader, flavour: VCRImport.Flavour, recordedAt: Date) {
        self.reader = reader
        self.flavour = flavour
        self.recordedAt = recordedAt
    }

    mutating func interaction(_ node: Node, path: String) throws(VCRImportError) -> Interaction {
        let fields = try reader.mapping(node, path)
        let requestNode = YAMLReader.value(fields, "request")
        let request = try reader.mapping(requestNode, "\(path).request", in: fields)
        let method = try reader.string(YAMLReader.value(request, "method"), "\(path).request.method", in: request).uppercased()
        let uriNode = YAMLReader.value(request, "uri")
        let uri = try reader.string(uriNode, "\(path).request.uri", in: request)
        guard let separator = uri.range(of: "://"), ["http", "https"].contains(uri[..<separator.lowerBound].lowercased()),
              let first = uri[separator.upperBound...].first, first != "/" else {
            throw reader.fail(uriNode, "\(path).request.uri", "'\(uri)' is not an absolute http or https URL")
        }
        let recordedRequest = Interaction.Request(
            method: method, url: uri,
            headers: try reader.headers(YAMLReader.value(request, "headers"), "\(path).request.headers"),
            body: CassetteBody(try body(YAMLReader.value(request, "body"), path: "\(path).request.body")))
        let response = try self.response(YAMLReader.value(fields, "response"), path: "\(path).response", in: fields)
        return Interaction(request: recordedRequest, outcome: .response(response),
                           recordedAt: try recordedTime(YAMLReader.value(fields, "recorded_at"), path: "\(path).recorded_at"))
    }

    private mutating func response(_ node: Node?, path: String, in parent: Node.Mapping) throws(VCRImportError) -> Interaction.Response {
        let fields = try reader.mapping(node, path, in: parent)
        let status = try reader.mapping(YAMLReader.value(fields, "status"), "\(path).status", in: fields)
        let codeNode = YAMLReader.value(status, "code")
        let code = try reader.integer(codeNode, "\(path).status.code", in: status)
        guard (100...599).contains(code) else { throw reader.fail(codeNode, "\(path).status.code", "\(code) is not an HTTP status code") }
        let messageNode = YAMLReader.value(status, "message")
        let message = YAMLReader.isNull(messageNode) ? "" : try reader.string(messageNode, "\(path).status.message")
        var headers = try reader.headers(YAMLReader.value(fields, "headers"), "\(path).headers")
        let bodyNode = YAMLReader.value(fields, "body")
        let body = decoded(try self.body(bodyNode, path: "\(path).body"), headers: &headers, path: "\(path).body")
        return Interaction.Response(statusCode: code, reasonPhrase: message,
                                    httpVersion: try httpVersion(YAMLReader.value(fields, "http_version"), path: "\(path).http_version"),
                                    headers: headers, body: body)
    }

    /// A body: vcrpy's request body is a scalar (or `null`); responses, and Ruby VCR's bodies, are a mapping with
    /// `string` (a `!binary`/`!!binary` one is base64) or `base64_string`.
    private func body(_ node: Node?, path: String) throws(VCRImportError) -> Data {
        if YAMLReader.isNull(node) { return Data() }
        guard let fields = node?.mapping else { return try reader.bytes(node, path) }
        if let encoded = YAMLReader.value(fields, "base64_string") {
            return try reader.bytes(encoded, "\(path).base64_string", base64: true)
        }
        guard let string = YAMLReader.value(fields, "string") else {
            throw reader.fail(node, path, "a body needs 'string' or 'base64_string'")
        }
        return try reader.bytes(string, "\(path).string")
    }

    /// The response body as Tapedeck stores it, given its `Content-Encoding` (see ``VCRBodyCoding``).
    private mutating func decoded(_ data: Data, headers: inout HTTPHeaders, path: String) -> CassetteBody {
        let outcome = VCRBodyCoding.decide(data, contentEncoding: headers.values(for: "Content-Encoding").last)
        switch outcome.verdict {
        case .notEncoded: break
        case .decoded: decompressed += 1
        case .alreadyDecoded: storedDecoded += 1
        case .keptAsRecorded(let reason): notes.append("\(path): \(reason)")
        }
        if outcome.dropsEncodingHeader {
            headers.remove(name: "Content-Encoding")
            if headers["Content-Length"] != nil { headers["Content-Length"] = String(outcome.body.byteCount) }
        }
        return outcome.body
    }

    /// `HTTP/1.1` unless Ruby VCR recorded another version (`1.0`, `2`).
    private func httpVersion(_ node: Node?, path: String) throws(VCRImportError) -> String {
        if YAMLReader.isNull(node) { return "HTTP/1.1" }
        let version = try reader.string(node, path)
        if version.hasPrefix("HTTP/") { return version }
        return version == "2" || version == "2.0" ? "HTTP/2" : "HTTP/\(version)"
    }

    /// Ruby VCR's `recorded_at` (an HTTP date, or ISO 8601), else the import's time.
    private func recordedTime(_ node: Node?, path: String) throws(VCRImportError) -> Date {
        if YAMLReader.isNull(node) { return recordedAt }
        let text = try reader.string(node, path)
        if let date = HTTPDate.parse(text) ?? (try? Date(text, strategy: .iso8601)) { return date }
        throw reader.fail(node, path, "'\(text)' is not a date (expected e.g. 'Tue, 01 Nov 2011 04:58:44 GMT')")
    }
}
