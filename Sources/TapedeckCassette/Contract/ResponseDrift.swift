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

    private static func answer(_ response: Interaction.Response, _ bodyData: (CassetteBody) -> Data?) -> ContractRules.Answer {
        ContractRules.Answer(status: response.statusCode, contentType: response.headers["Content-Type"],
                             body: bodyData(response.body) ?? Data())
    }
}
