import Foundation
import TapedeckCassette
import TapedeckCore

/// A Pact contract served as stubs (`tapedeck serve --pact CONTRACT`, as pact-stub-server does): a request is
/// answered with the example response of the first contract interaction whose request it matches by Pact's rules
/// (`PactComparison`: matchers apply, so a request with another id or date than the example still matches), else
/// with a `404` naming the nearest interaction (ranked as stubs and cassette interactions are: an interaction that
/// differs in a header comes before one that differs in the path) and why it does not match.
///
/// ```swift
/// let stubs = try PactStubs(PactImport.read(contractData))
/// let answer = stubs.respond(to: Interaction.Request(method: "GET", url: "/users/7"))
/// ```
public struct PactStubs: Sendable {
    private let contract: PactImport
    private let comparisons: [PactComparison]
    private let answers: [Interaction.Response]

    /// Prepares the contract's interactions (their rules were checked when it was read).
    public init(_ contract: PactImport) throws(PactFileError) {
        self.contract = contract
        var comparisons: [PactComparison] = []
        for (index, interaction) in contract.interactions.enumerated() {
            comparisons.append(try PactComparison(expected: interaction.request, version: contract.version, isRequest: true,
                                                  at: "$.interactions[\(index)].request"))
        }
        self.comparisons = comparisons
        answers = contract.cassette(recordedAt: Date(timeIntervalSince1970: 0)).interactions.compactMap(\.response)
    }

    /// How many interactions are served.
    public var count: Int { answers.count }

    /// The answer to `request` (its `url` may be a path and query alone), and the description of the interaction
    /// that gave it (`nil` for the 404).
    public func respond(to request: Interaction.Request) -> (response: Interaction.Response, interaction: String?) {
        let json: CassetteJSON
        do {
            json = try PactVerification.requestJSON(request) { $0.inlineData ?? Data() }
        } catch {
            return (Self.notFound("the request could not be read: \(error)"), nil)
        }
        var unmatched: [(index: Int, differences: [NearMissDifference])] = []
        for (index, comparison) in comparisons.enumerated() {
            let differences = (try? comparison.differences(actual: json))
                ?? [NearMissDifference(line: "its body cannot be compared", weight: NearMissDifference.Weight.detail)]
            if differences.isEmpty { return (answers[index], contract.interactions[index].description) }
            unmatched.append((index, differences))
        }
        // Ranked as stubs and cassettes are: what differs least (a header before a path), then the nearest path.
        let nearest = NearMiss.nearest(unmatched, toPath: json["path"]?.stringValue, limit: 1,
                                       path: { comparisons[$0.index].expected["path"]?.stringValue }, differences: \.differences).first
        let report = nearest.map { miss in
            "nearest: \(contract.interactions[miss.candidate.index].description)\n" + miss.differences.map { "  - \($0)" }.joined(separator: "\n")
        } ?? "the contract has no interactions"
        return (Self.notFound("no interaction of the Pact contract between \(contract.consumer) and \(contract.provider) matches "
                              + "\(request.method) \(URLParts(request.url).pathAndQuery)\n\(report)"), nil)
    }

    private static func notFound(_ text: String) -> Interaction.Response {
        Interaction.Response(statusCode: 404, headers: ["Content-Type": "text/plain; charset=utf-8"], body: CassetteBody(Data((text + "\n").utf8)))
    }
}
