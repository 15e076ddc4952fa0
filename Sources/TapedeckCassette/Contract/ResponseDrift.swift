import Foundation
import TapedeckCore

/// How a live answer drifted from the answer recorded earlier for the same request, by ``ContractRules`` (status,
/// media type, JSON shape; values are free to change). Recording reports it so that a provider's change shows while
/// the cassette is re-recorded, not only when `tapedeck verify` runs. Pure: interactions in, a line out.
///
/// A live transport error is "could not check", never drift: nothing is said about it.
///
/// ```swift
/// ResponseDrift.line(recorded: old, live: new, position: 3) { $0.inlineData }
/// // "#3 GET https://api.example.com/user: status: expected 200, got 404; shape: $.id: missing (recorded as number)"
/// ```
enum ResponseDrift {
    /// The drift of `live` from `recorded` as one line naming the interaction, or `nil` when there is none (or the
    /// live request failed). `bodyData` reads a body's bytes (sidecar files included); a body it cannot read is
    /// taken as empty.
    static func line(recorded: Interaction, live: Interaction, position: Int,
                     bodyData: (CassetteBody) -> Data?) -> String? {
        guard case .response(let now) = live.outcome else { return nil }
        var prefix: String { "#\(position) \(live.request.summary): " }
        switch recorded.outcome {
        case .failure(let failure):
            return prefix + "outcome: recorded a transport error (\(failure.code) \(URLErrorNames.name(failure.code))), got status \(now.statusCode)"
        case .response(let then):
            let recordedAnswer = answer(then, bodyData), liveAnswer = answer(now, bodyData)
            // The same answer again (the common re-recording) cannot have drifted: nothing to parse.
            if recordedAnswer == liveAnswer { return nil }
            let violations = ContractRules().check(recorded: recordedAnswer, live: liveAnswer)
            return violations.isEmpty ? nil : prefix + violations.map(\.line).joined(separator: "; ")
        }
    }

    /// Pairs each of the `recorded` requests with its earlier recording in `earlier`, as indexes into the two: the
    /// k-th recording of a request (its ``RequestPlace/key(_:)``) with the k-th earlier one; a request recorded
    /// more often than before has no pair for the extra ones.
    ///
    /// A re-recording usually repeats the earlier run request for request. While it does (the same method and URL at
    /// each index), the pairs are index to index, found without working out a key; keys are worked out only from the
    /// first request that departs.
    static func pairs(recorded: [Interaction.Request], earlier: [Interaction.Request]) -> [(earlier: Int, recorded: Int)] {
        var inStep = 0
        while inStep < recorded.count, inStep < earlier.count,
              recorded[inStep].method == earlier[inStep].method, recorded[inStep].url == earlier[inStep].url {
            inStep += 1
        }
        var pairs = (0..<inStep).map { (earlier: $0, recorded: $0) }
        guard inStep < recorded.count else { return pairs }
        var positions: [String: [Int]] = [:]
        for (index, request) in earlier.enumerated() { positions[RequestPlace.key(request), default: []].append(index) }
        var paired: [String: Int] = [:]
        for request in recorded[..<inStep] { paired[RequestPlace.key(request), default: 0] += 1 }
        for index in inStep..<recorded.count {
            let key = RequestPlace.key(recorded[index])
            let occurrence = paired[key, default: 0]
            guard let found = positions[key], occurrence < found.count else { continue }
            paired[key] = occurrence + 1
            pairs.append((earlier: found[occurrence], recorded: index))
        }
        return pairs
    }

    private static func answer(_ response: Interaction.Response, _ bodyData: (CassetteBody) -> Data?) -> ContractRules.Answer {
        ContractRules.Answer(status: response.statusCode, contentType: response.headers["Content-Type"],
                             body: bodyData(response.body) ?? Data())
    }
}
