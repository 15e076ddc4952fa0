import Foundation
import TapedeckCassette
import TapedeckCore

/// Reads a Pact contract (specification v2, v3 or v4; what `convert --to pact`, pact-jvm, pact-js or pact-python
/// write) as a cassette: the engine of `tapedeck convert --from pact`. Each HTTP interaction becomes one recorded
/// exchange with its example request and response (`http://localhost` + path and query; bodies as their bytes: JSON
/// serialized, text as UTF-8, v4's `encoded` base64 decoded).
///
/// Everything is checked before anything is returned, so nothing is half converted: a newer specification than 4,
/// a message interaction, a matching rule with an unknown matcher, or a file that is not JSON or is cut short is
/// refused with a ``PactFileError`` naming the JSON path (for broken JSON, the path of the value being read where
/// the text breaks off).
///
/// ```swift
/// let pact = try PactImport.read(Data(contentsOf: URL(fileURLWithPath: "pacts/web-users.json")))
/// let cassette = pact.cassette(recordedAt: Date())
/// ```
public struct PactImport: Sendable {
    /// The consumer's and the provider's names.
    public var consumer: String, provider: String
    /// The specification's major version (2, 3 or 4).
    public var version: Int
    /// Each interaction's description, request and response as the file has them (`matchingRules` included).
    public var interactions: [(description: String, request: CassetteJSON, response: CassetteJSON)]

    /// Whether the file at `path` looks like a Pact contract (it names a `consumer` and a `provider` in its first
    /// 64 KiB).
    @available(*, deprecated, message: "use RecordingFormat.evidence(path:) == .pact, which tells every format the CLI reads")
    public static func looksLikePact(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 65_536)) ?? Data(), as: UTF8.self)
        return head.contains("\"consumer\"") && head.contains("\"provider\"")
    }

    /// The newest specification read.
    public static let newestVersion = 4

    /// Reads and checks a Pact file.
    public static func read(_ data: Data) throws(PactFileError) -> PactImport {
        let document: CassetteJSON
        do { document = try CassetteJSON.parse(data) } catch {
            throw PactFileError(path: JSONBreakPath.path(in: data, upTo: error.offset),
                                reason: "not valid JSON: \(error.reason) (line \(error.line), column \(error.column))")
        }
        guard case .object = document else { throw PactFileError(path: "$", reason: "expected a Pact contract (an object)") }
        let version = try specificationVersion(document)
        guard let consumer = document["consumer"]?["name"]?.stringValue else { throw PactFileError(path: "$.consumer.name", reason: "missing") }
        guard let provider = document["provider"]?["name"]?.stringValue else { throw PactFileError(path: "$.provider.name", reason: "missing") }
        if document["messages"] != nil { throw PactFileError(path: "$.messages", reason: "message pacts are not supported") }
        guard case .array(let list)? = document["interactions"] else { throw PactFileError(path: "$.interactions", reason: "missing (a list)") }
        var interactions: [(description: String, request: CassetteJSON, response: CassetteJSON)] = []
        for (index, interaction) in list.enumerated() {
            let at = "$.interactions[\(index)]"
            if let type = interaction["type"]?.stringValue, type != "Synchronous/HTTP" {
                throw PactFileError(path: "\(at).type", reason: "'\(type)' interactions are not supported (only Synchronous/HTTP)")
            }
            guard let request = interaction["request"], case .object = request else { throw PactFileError(path: "\(at).request", reason: "missing (an object)") }
            guard let response = interaction["response"], case .object = response else { throw PactFileError(path: "\(at).response", reason: "missing (an object)") }
            guard request["method"]?.stringValue != nil else { throw PactFileError(path: "\(at).request.method", reason: "missing (a string)") }
            guard request["path"]?.stringValue != nil else { throw PactFileError(path: "\(at).request.path", reason: "missing (a string)") }
            guard case .number(let status)? = response["status"], let code = Int(status), (100...599).contains(code) else {
                throw PactFileError(path: "\(at).response.status", reason: "missing or not an HTTP status code")
            }
            _ = try PactRules.parse(request["matchingRules"], version: version, at: "\(at).request.matchingRules")
            _ = try PactRules.parse(response["matchingRules"], version: version, at: "\(at).response.matchingRules")
            _ = try body(request, at: "\(at).request")
            _ = try body(response, at: "\(at).response")
            interactions.append((interaction["description"]?.stringValue ?? "interaction \(index + 1)", request, response))
        }
        return PactImport(consumer: consumer, provider: provider, version: version, interactions: interactions)
    }

    /// The contract's example exchanges as a cassette, every interaction dated `recordedAt`.
    public func cassette(recordedAt: Date) -> Cassette {
        Cassette(interactions: interactions.map { interaction in
            let request = interaction.request, response = interaction.response
            let query = PactComparison.queryMap(request["query"] ?? .object([]))
                .flatMap { name, values in values.map { Self.escaped(name) + "=" + Self.escaped($0) } }.joined(separator: "&")
            let path = request["path"]?.stringValue ?? "/"
            let url = "http://localhost" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + (query.isEmpty ? "" : "?" + query)
            let recorded = Interaction.Request(method: request["method"]?.stringValue?.uppercased() ?? "GET", url: url,
                                               headers: Self.headers(request), body: CassetteBody((try? Self.body(request, at: "")) ?? Data()))
            var status = 200
            if case .number(let literal)? = response["status"] { status = Int(literal) ?? 200 }
            let answer = Interaction.Response(statusCode: status, headers: Self.headers(response),
                                              body: CassetteBody((try? Self.body(response, at: "")) ?? Data()))
            return Interaction(request: recorded, outcome: .response(answer), recordedAt: recordedAt)
        })
    }

    /// The major version of `metadata.pactSpecification.version` (v3, v4), `metadata.pact-specification.version`
    /// or `metadata.pactSpecificationVersion` (v2 writers); 2 when none is given.
    private static func specificationVersion(_ document: CassetteJSON) throws(PactFileError) -> Int {
        let candidates: [(String, CassetteJSON?)] = [
            ("$.metadata.pactSpecification.version", document["metadata"]?["pactSpecification"]?["version"]),
            ("$.metadata['pact-specification'].version", document["metadata"]?["pact-specification"]?["version"]),
            ("$.metadata.pactSpecificationVersion", document["metadata"]?["pactSpecificationVersion"]),
        ]
        guard let (path, value) = candidates.first(where: { $0.1 != nil }), let value else { return 2 }
        let text = value.stringValue ?? PactComparison.text(value)
        guard let major = Int(text.prefix { $0.isNumber }) else { throw PactFileError(path: path, reason: "'\(text)' is not a version") }
        if major > newestVersion {
            throw PactFileError(path: path, reason: "Pact specification \(text) is newer than supported (2, 3 and 4)")
        }
        return max(major, 2)
    }

    /// The body's bytes: JSON serialized, a string as UTF-8 (base64-decoded when v4 says `encoded`).
    private static func body(_ part: CassetteJSON, at location: String) throws(PactFileError) -> Data {
        guard let raw = part["body"] else { return Data() }
        let content = PactComparison.unwrapped(raw)
        if case .string(let text)? = content {
            if let encoded = raw["encoded"], encoded != .bool(false), encoded != .null {
                guard let bytes = Data(base64Encoded: text) else {
                    throw PactFileError(path: "\(location).body.content", reason: "marked encoded but not valid base64")
                }
                return bytes
            }
            // v3 has no binary form: a body of a media type neither JSON nor text is its bytes in base64 (PactBody).
            if let mediaType = contentType(part).map(MediaType.essence(of:)), !PactBody.isJSON(mediaType), !PactBody.isText(mediaType),
               let bytes = Data(base64Encoded: text) {
                return bytes
            }
            return Data(text.utf8)
        }
        guard let content, content != .null else { return Data() }
        return CassetteJSON.serialize(content)
    }

    private static func contentType(_ part: CassetteJSON) -> String? {
        if let hinted = part["body"]?["contentType"]?.stringValue { return hinted }
        return headers(part)["Content-Type"]
    }

    private static func headers(_ part: CassetteJSON) -> HTTPHeaders {
        var headers = HTTPHeaders()
        guard case .object(let members)? = part["headers"] else { return headers }
        for member in members {
            switch member.value {
            case .array(let lines): for line in lines { headers.add(name: member.key, value: PactComparison.text(line)) }
            default: headers.add(name: member.key, value: PactComparison.text(member.value))
            }
        }
        return headers
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))) ?? text
    }
}
