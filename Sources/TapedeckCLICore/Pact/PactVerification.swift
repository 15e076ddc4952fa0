import Foundation
import TapedeckCassette
import TapedeckCore

/// Whether a consumer's recordings honour a Pact contract (`tapedeck verify CASSETTE --pact CONTRACT`): for each
/// contract interaction, a recorded exchange whose request matches the contract's request by Pact's rules
/// (`PactComparison`) and whose response then matches the contract's response. A contract interaction with no
/// matching recorded request is reported as not recorded; recorded exchanges the contract does not describe are
/// listed apart and break nothing.
///
/// ```swift
/// let report = try PactVerification.check(cassette, against: PactImport.read(contractData)) { $0.inlineData ?? Data() }
/// report.passed   // every contract interaction recorded and honoured
/// ```
public enum PactVerification {
    /// The verdict on one contract interaction.
    public struct Outcome: Sendable, Hashable {
        /// The contract interaction's description.
        public var description: String
        /// The 0-based index of the recorded exchange that answered it, when one did.
        public var recordedIndex: Int?
        /// Why it fails: empty when it passes.
        public var problems: [String]

        /// Whether a recorded exchange honours the interaction.
        public var passed: Bool { problems.isEmpty }
    }

    /// Every contract interaction's outcome, and the recorded exchanges the contract does not describe.
    public struct Report: Sendable {
        /// One outcome per contract interaction, in contract order.
        public var outcomes: [Outcome]
        /// 0-based indexes of recorded exchanges whose request no contract interaction describes.
        public var undescribed: [Int]

        /// Whether every contract interaction is honoured.
        public var passed: Bool { outcomes.allSatisfy(\.passed) }
    }

    /// Checks `cassette` against `contract`; `bodyData` reads a body's bytes (sidecar files included).
    public static func check(_ cassette: Cassette, against contract: PactImport,
                             bodyData: (CassetteBody) throws -> Data) throws -> Report {
        let recorded: [(request: CassetteJSON, response: CassetteJSON?)] = try cassette.interactions.map { interaction in
            (try requestJSON(interaction.request, bodyData: bodyData), try interaction.response.map { try responseJSON($0, bodyData: bodyData) })
        }
        var described = Set<Int>(), taken = Set<Int>()
        var outcomes: [Outcome] = []
        for (index, interaction) in contract.interactions.enumerated() {
            let at = "$.interactions[\(index)]"
            let requestRules = try PactComparison(expected: interaction.request, version: contract.version, isRequest: true, at: "\(at).request")
            let responseRules = try PactComparison(expected: interaction.response, version: contract.version, isRequest: false, at: "\(at).response")
            var nearest: (index: Int, problems: [String])?
            var found: Outcome?
            // Exchanges no earlier contract interaction took come first, so repeats pair up in recorded order.
            let order = recorded.indices.filter { !taken.contains($0) } + recorded.indices.filter { taken.contains($0) }
            for position in order where try requestRules.mismatches(actual: recorded[position].request).isEmpty {
                let exchange = recorded[position]
                described.insert(position)
                guard let response = exchange.response else {
                    nearest = nearest ?? (position, ["the recorded exchange #\(position) ended in a transport error"])
                    continue
                }
                let problems = try responseRules.mismatches(actual: response)
                if problems.isEmpty {
                    taken.insert(position)
                    found = Outcome(description: interaction.description, recordedIndex: position, problems: [])
                    break
                }
                nearest = nearest ?? (position, problems.map { "response \($0)" })
            }
            outcomes.append(found ?? Outcome(description: interaction.description, recordedIndex: nearest?.index,
                                             problems: nearest?.problems ?? ["no recorded request matches the contract's request"]))
        }
        return Report(outcomes: outcomes, undescribed: recorded.indices.filter { !described.contains($0) })
    }

    /// A recorded request in the form of a Pact request.
    static func requestJSON(_ request: Interaction.Request, bodyData: (CassetteBody) throws -> Data) throws -> CassetteJSON {
        let target = URLParts(request.url).pathAndQuery
        let questionMark = target.firstIndex(of: "?")
        var members: [CassetteJSON.Member] = [
            .init("method", .string(request.method.uppercased())),
            .init("path", .string(PactExport.decodedPath(String(target[..<(questionMark ?? target.endIndex)])))),
        ]
        if let questionMark { members.append(.init("query", .object(PactExport.query(target[target.index(after: questionMark)...])))) }
        members.append(.init("headers", headers(request.headers)))
        if let body = body(try bodyData(request.body), contentType: request.headers["Content-Type"]) { members.append(.init("body", body)) }
        return .object(members)
    }

    /// A recorded response in the form of a Pact response.
    static func responseJSON(_ response: Interaction.Response, bodyData: (CassetteBody) throws -> Data) throws -> CassetteJSON {
        var members: [CassetteJSON.Member] = [.init("status", .integer(response.statusCode)), .init("headers", headers(response.headers))]
        if let body = body(try bodyData(response.body), contentType: response.headers["Content-Type"]) { members.append(.init("body", body)) }
        return .object(members)
    }

    private static func headers(_ headers: HTTPHeaders) -> CassetteJSON {
        var names: [String] = []
        var lines: [String: [String]] = [:]
        for field in headers {
            if lines[field.name.lowercased()] == nil { names.append(field.name) }
            lines[field.name.lowercased(), default: []].append(field.value)
        }
        return .object(names.map { .init($0, .string(lines[$0.lowercased()]!.joined(separator: ", "))) })
    }

    private static func body(_ data: Data, contentType: String?) -> CassetteJSON? {
        if data.isEmpty { return nil }
        if case .success(let value) = PactBody.value(of: data, contentType: contentType) { return value }
        return .string(data.base64EncodedString())
    }
}
