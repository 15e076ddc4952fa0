import Foundation
import TapedeckCassette
import TapedeckCore

/// A cassette as a Pact specification v3 consumer contract (`{"consumer", "provider", "interactions", "metadata"}`,
/// what a Pact verifier or broker reads): the engine of `tapedeck convert --to pact`.
///
/// Each interaction keeps its recorded order and becomes a Pact interaction described as `METHOD /path?query`,
/// numbered `(2 of 3)` when the same request was made more than once, with no provider states. The request keeps its
/// method, its path (percent-decoded, as Pact reads paths, unless decoding would change its structure: then as
/// recorded), its query as a map from name to the decoded values in order (v3's form), its headers and its body; the
/// response keeps its status, headers and body. Headers are strings, or lists of their lines in a message that sent
/// a header more than once (the form Pact's verifier matches against repeated lines). Left out: `Content-Length`,
/// `Transfer-Encoding`, `Connection` and `Keep-Alive` (they describe the connection), the request's `Host` (the
/// verifier sets it; `Accept`, `Accept-Encoding` and `Content-Type` stay, since they select the representation
/// recorded), the response's `Date` (never the same twice) and its `Content-Encoding` (the verifier's client decodes
/// a compressed answer and drops the header; the body is written decoded). Bodies are written as `PactBody` says:
/// JSON as JSON, text as text, anything else as base64. Redacted values stay as their placeholders.
///
/// Pact has no form for a recorded transport error, a response whose body was cut short, a templated response, or a
/// body `PactBody` refuses: those interactions are left out and listed in ``Contract/skipped``.
///
/// ```swift
/// let contract = try PactExport.contract(for: cassette, consumer: "web", provider: "users-api") { $0.inlineData ?? Data() }
/// let data = CassetteJSON.serialize(contract.json, style: .pretty)
/// for skipped in contract.skipped { print("left out: \(skipped)") }
/// ```
public enum PactExport {
    /// The contract and the interactions it leaves out.
    public struct Contract: Sendable {
        /// The Pact v3 document.
        public var json: CassetteJSON
        /// The interactions that have no Pact form, in cassette order.
        public var skipped: [Skipped]
    }

    /// An interaction left out of the contract, and why.
    public struct Skipped: Hashable, Sendable, CustomStringConvertible {
        /// Its 1-based place in the cassette.
        public var number: Int
        /// `METHOD URL`.
        public var request: String
        /// Why Pact cannot express it.
        public var reason: String

        /// `#4 GET http://api.example.com/down: a recorded transport error has no Pact form`.
        public var description: String { "#\(number) \(request): \(reason)" }
    }

    /// The specification version the contract declares.
    public static let specificationVersion = "3.0.0"

    /// The Pact v3 contract between `consumer` and `provider` that `cassette` records; `bodyData` reads a body's
    /// bytes (sidecar files included).
    ///
    /// With `matchers` (the default), each response gets the `matchingRules` `PactMatchers` finds: values that
    /// differed between repeats of the same request (same method, URL, `Accept` and body) and values of recognised
    /// formats; without, the provider must send every recorded value again.
    public static func contract(for cassette: Cassette, consumer: String, provider: String, matchers: Bool = true,
                                bodyData: (CassetteBody) throws -> Data) rethrows -> Contract {
        var interactions: [CassetteJSON] = []
        var skipped: [Skipped] = []
        let places = RequestPlace.places(in: cassette)
        let varying = matchers ? try self.varying(in: cassette, places: places, bodyData: bodyData) : nil
        for (index, (interaction, place)) in zip(cassette.interactions, places).enumerated() {
            switch try pactInteraction(interaction, description: place.key + place.suffix, varying: varying?[index], bodyData: bodyData) {
            case .success(let json): interactions.append(json)
            case .failure(let refusal):
                skipped.append(Skipped(number: index + 1, request: interaction.request.summary, reason: refusal.reason))
            }
        }
        let json = CassetteJSON.object([
            .init("consumer", .object([.init("name", .string(consumer))])),
            .init("provider", .object([.init("name", .string(provider))])),
            .init("interactions", .array(interactions)),
            .init("metadata", .object([.init("pactSpecification", .object([.init("version", .string(specificationVersion))]))])),
        ])
        return Contract(json: json, skipped: skipped)
    }

    /// The default consumer name: the cassette file's name without its extension (`users` for `Cassettes/users.json`).
    public static func defaultConsumer(cassettePath: String) -> String {
        URL(fileURLWithPath: cassettePath).deletingPathExtension().lastPathComponent
    }

    /// The default provider name: the host of the cassette's first request, or `nil` when there is none.
    public static func defaultProvider(for cassette: Cassette) -> String? {
        cassette.interactions.lazy.compactMap { URL(string: $0.request.url)?.host?.lowercased() }.first { !$0.isEmpty }
    }

    /// For each interaction, what differed among the answers to its repeats (`PactMatchers.varying(_:)`).
    private static func varying(in cassette: Cassette, places: [RequestPlace],
                                bodyData: (CassetteBody) throws -> Data) rethrows -> [PactMatchers.Varying] {
        var groups: [String: [Int]] = [:]
        for (index, (interaction, place)) in zip(cassette.interactions, places).enumerated() where interaction.response != nil {
            let request = interaction.request
            let key = [place.key, request.headers["Accept"] ?? "", try bodyData(request.body).base64EncodedString()].joined(separator: "\u{1}")
            groups[key, default: []].append(index)
        }
        var result = [PactMatchers.Varying](repeating: PactMatchers.Varying(), count: cassette.interactions.count)
        for members in groups.values where members.count > 1 {
            var answers: [(headers: HTTPHeaders, json: CassetteJSON?)] = []
            for index in members {
                let response = cassette.interactions[index].response!
                let json: CassetteJSON? = if case .success(let value) = PactBody.value(of: try bodyData(response.body), contentType: response.headers["Content-Type"]),
                                              PactBody.isJSON(response.headers["Content-Type"].map(MediaType.essence(of:)) ?? "") { value } else { nil }
                answers.append((response.headers, json))
            }
            let found = PactMatchers.varying(answers)
            for index in members { result[index] = found }
        }
        return result
    }

    private static func pactInteraction(_ interaction: Interaction, description: String, varying: PactMatchers.Varying?,
                                         bodyData: (CassetteBody) throws -> Data) rethrows -> Result<CassetteJSON, PactBody.Refusal> {
        let response: Interaction.Response
        switch interaction.outcome {
        case .failure(let failure):
            return .failure(.init("a recorded transport error (\(failure.message)) has no Pact form"))
        case .response(let recorded):
            response = recorded
        }
        if response.interruption != nil { return .failure(.init("its response body was cut short, which Pact cannot express")) }
        if response.isTemplated { return .failure(.init("its response is a template filled at replay, which Pact cannot express")) }
        var requestMembers = pactRequestHead(interaction.request)
        if let refusal = addBody(try bodyData(interaction.request.body), headers: interaction.request.headers, of: "request", to: &requestMembers) {
            return .failure(refusal)
        }
        var responseMembers: [CassetteJSON.Member] = [.init("status", .integer(response.statusCode))]
        addHeaders(response.headers, leavingOut: responseHeadersLeftOut, to: &responseMembers)
        if let refusal = addBody(try bodyData(response.body), headers: response.headers, of: "response", to: &responseMembers) {
            return .failure(refusal)
        }
        if let varying {
            let isJSON = PactBody.isJSON(response.headers["Content-Type"].map(MediaType.essence(of:)) ?? "")
            let body = isJSON ? responseMembers.first { $0.key == "body" }?.value : nil
            var headers: [CassetteJSON.Member] = []
            if case .object(let members)? = responseMembers.first(where: { $0.key == "headers" })?.value { headers = members }
            if let rules = PactMatchers.rules(body: body, headers: headers, varying: varying) {
                responseMembers.append(.init("matchingRules", rules))
            }
        }
        return .success(.object([
            .init("description", .string(description)),
            .init("request", .object(requestMembers)),
            .init("response", .object(responseMembers)),
        ]))
    }

    /// The request's `method`, `path`, `query` and `headers` members.
    private static func pactRequestHead(_ request: Interaction.Request) -> [CassetteJSON.Member] {
        var members: [CassetteJSON.Member] = [.init("method", .string(request.method.uppercased()))]
        let target = URLParts(request.url).pathAndQuery
        let questionMark = target.firstIndex(of: "?")
        members.append(.init("path", .string(decodedPath(String(target[..<(questionMark ?? target.endIndex)])))))
        if let questionMark {
            let query = self.query(target[target.index(after: questionMark)...])
            if !query.isEmpty { members.append(.init("query", .object(query))) }
        }
        addHeaders(request.headers, leavingOut: requestHeadersLeftOut, to: &members)
        return members
    }

    /// Request headers left out: those of the connection, and `Host`, which the verifier sets for the provider it
    /// is pointed at. `Accept`, `Accept-Encoding` and `Content-Type` stay: they select the representation recorded.
    private static let requestHeadersLeftOut = RequestPlace.framingHeaders.union(["host"])
    /// Response headers left out: those of the connection, `Date`, which differs on every answer, and
    /// `Content-Encoding`: the verifier's HTTP client decodes a compressed answer and drops the header (checked with
    /// pact_ffi 0.5.12), and the contract's body is the decoded one.
    private static let responseHeadersLeftOut = RequestPlace.framingHeaders.union(["date", "content-encoding"])

    /// Adds the `headers` member, unless no header is left.
    private static func addHeaders(_ headers: HTTPHeaders, leavingOut leftOut: Set<String>, to members: inout [CassetteJSON.Member]) {
        let map = self.headers(headers, leavingOut: leftOut)
        if !map.isEmpty { members.append(.init("headers", .object(map))) }
    }

    /// The headers as a map from name (its first spelling) to value: each a string, or, when any header of the
    /// message was sent on several lines, each the list of its lines (v3 allows either form, not a mix). Pact's
    /// verifier reads a string as one line and a list as separate lines, so a repeated header matches the lines a
    /// provider sends; joined into one string it would not.
    private static func headers(_ headers: HTTPHeaders, leavingOut leftOut: Set<String>) -> [CassetteJSON.Member] {
        var names: [String] = []
        var lines: [String: [String]] = [:]
        var spellings: [String: String] = [:]
        for field in headers {
            let name = field.name.lowercased()
            if leftOut.contains(name) { continue }
            if lines[name] == nil {
                names.append(name)
                spellings[name] = field.name
            }
            lines[name, default: []].append(field.value)
        }
        let asLists = lines.values.contains { $0.count > 1 }
        return names.map { name in
            let values = lines[name]!
            return CassetteJSON.Member(spellings[name]!, asLists ? .array(values.map(CassetteJSON.string)) : .string(values[0]))
        }
    }

    /// Adds the `body` member for `data` (none for an empty body); returns why not, naming `part`, when `PactBody`
    /// refuses it.
    private static func addBody(_ data: Data, headers: HTTPHeaders, of part: String,
                                to members: inout [CassetteJSON.Member]) -> PactBody.Refusal? {
        if data.isEmpty { return nil }
        switch PactBody.value(of: data, contentType: headers["Content-Type"]) {
        case .success(let value):
            members.append(.init("body", value))
            return nil
        case .failure(let refusal):
            return PactBody.Refusal("\(part): \(refusal.reason)")
        }
    }

    /// The query's decoded values grouped by name, names in order of first appearance (`a=1&b=2&a=3` is
    /// `{"a": ["1", "3"], "b": ["2"]}`); a name without `=` has the value `""`.
    static func query(_ query: Substring) -> [CassetteJSON.Member] {
        var members: [CassetteJSON.Member] = []
        for (name, value) in URLEncodedForm.pairs(Data(query.utf8)) {
            if let index = members.firstIndex(where: { $0.key == name }), case .array(let values) = members[index].value {
                members[index].value = .array(values + [.string(value)])
            } else {
                members.append(.init(name, .array([.string(value)])))
            }
        }
        return members
    }

    /// The path percent-decoded, unless an escape stands for `/`, `?`, `#` or `%` (decoding it would change which
    /// segments or which URL the verifier sends) or the escapes are not UTF-8: then the path as recorded.
    static func decodedPath(_ path: String) -> String {
        let lowered = path.lowercased()
        if ["%2f", "%3f", "%23", "%25"].contains(where: { lowered.contains($0) }) { return path }
        return path.removingPercentEncoding ?? path
    }
}
