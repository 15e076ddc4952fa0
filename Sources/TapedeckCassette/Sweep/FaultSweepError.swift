import Foundation

/// Why a fault sweep cannot be planned.
public enum FaultSweepError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A fault name that is none of ``InteractionFault``'s, with the known identifiers.
    case unknownFault(String, known: [String])
    /// A known-failure entry that is not `PATTERN · FAULT` (or `PATTERN | FAULT`).
    case invalidKnownFailure(String)
    /// The cassette could not be read.
    case cassette(CassetteError)

    /// Two errors are equal when they say the same.
    public static func == (lhs: FaultSweepError, rhs: FaultSweepError) -> Bool { lhs.description == rhs.description }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .unknownFault(let name, let known):
            return "unknown fault \"\(name)\"; the known faults are \(known.joined(separator: ", "))"
        case .invalidKnownFailure(let text):
            return "\"\(text)\" is not a known failure: write `METHOD PATH · FAULT` (or `|` for `·`), e.g. `GET /v1/me · timeout`"
        case .cassette(let error):
            return error.description
        }
    }
}
