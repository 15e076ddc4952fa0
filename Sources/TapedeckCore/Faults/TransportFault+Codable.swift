import Foundation

/// The JSON form of a fault: `fault` names it, and the fault's own members follow — `partialBodySent` and
/// `partialBodyDeclared` (`partialBody`, `0 < sent < declared`), `partialBodySent` (`stall`), `status` (`status`),
/// one of `body` (text) or `base64Body` (`malformedResponse`). Any other member is refused, naming the fault and
/// the member; errors are `DecodingError.dataCorrupted` whose coding path is the place in the document.
extension TransportFault: Codable {
    private enum CodingKeys: String, CodingKey {
        case fault, partialBodySent, partialBodyDeclared, status, body, base64Body
    }

    /// Each fault's name in its JSON form, in the order error messages list them.
    private enum Kind: String, CaseIterable {
        case closeWithoutResponse, reset, malformedStatusLine, malformedHeaders, malformedResponse, noResponse, partialBody, stall, status

        /// The members the fault takes besides `fault` (for `malformedResponse`, one of them).
        var members: [CodingKeys] {
            switch self {
            case .partialBody: [.partialBodySent, .partialBodyDeclared]
            case .stall: [.partialBodySent]
            case .status: [.status]
            case .malformedResponse: [.body, .base64Body]
            default: []
            }
        }
    }

    private var kind: Kind {
        switch self {
        case .closeWithoutResponse: .closeWithoutResponse
        case .reset: .reset
        case .malformedStatusLine: .malformedStatusLine
        case .malformedHeaders: .malformedHeaders
        case .malformedResponse: .malformedResponse
        case .noResponse: .noResponse
        case .partialBody: .partialBody
        case .stall: .stall
        case .status: .status
        }
    }

    /// Decodes a fault, refusing an unknown name, a member the fault does not take, and out-of-range values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .fault)
        guard let kind = Kind(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .fault, in: container, debugDescription:
                "unknown fault \(Shown.quoted(name)); use one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func fail(_ reason: String, at key: CodingKeys? = nil) -> DecodingError {
            var path = decoder.codingPath
            if let key { path.append(key) }
            return .dataCorrupted(.init(codingPath: path, debugDescription: reason))
        }
        let takes = kind.members.map(\.stringValue)
        let others = try decoder.container(keyedBy: AnyMemberKey.self).allKeys.map(\.stringValue).filter { $0 != "fault" && !takes.contains($0) }
        guard others.isEmpty else {
            throw fail("the \(name) fault takes \(takes.isEmpty ? "no other member" : takes.joined(separator: ", ")); remove \(others.sorted().joined(separator: ", "))")
        }
        switch kind {
        case .closeWithoutResponse: self = .closeWithoutResponse
        case .reset: self = .reset
        case .malformedStatusLine: self = .malformedStatusLine
        case .malformedHeaders: self = .malformedHeaders
        case .noResponse: self = .noResponse
        case .malformedResponse:
            let text = try container.decodeIfPresent(String.self, forKey: .body)
            let base64 = try container.decodeIfPresent(String.self, forKey: .base64Body)
            guard (text == nil) != (base64 == nil) else { throw fail("the malformedResponse fault sends exactly the bytes of one body or base64Body") }
            guard let bytes = text.map({ Data($0.utf8) }) ?? Data(base64Encoded: base64!) else { throw fail("is not valid base64", at: .base64Body) }
            self = .malformedResponse(bytes)
        case .partialBody:
            let sent = try container.decodeIfPresent(Int.self, forKey: .partialBodySent)
            let declared = try container.decodeIfPresent(Int.self, forKey: .partialBodyDeclared)
            guard let sent, let declared, 0 < sent, sent < declared else {
                throw fail("the partialBody fault needs partialBodySent and partialBodyDeclared with 0 < sent < declared")
            }
            self = .partialBody(sent: sent, declared: declared)
        case .stall:
            let sent = try container.decodeIfPresent(Int.self, forKey: .partialBodySent) ?? 0
            guard sent >= 0 else { throw fail("must not be negative, got \(sent)", at: .partialBodySent) }
            self = .stall(sent: sent)
        case .status:
            let status = try container.decode(Int.self, forKey: .status)
            if let problem = Self.statusProblem(status) { throw fail(problem, at: .status) }
            self = .status(status)
        }
    }

    /// Encodes the fault as ``init(from:)`` reads it (the bytes of `malformedResponse` as `base64Body`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .fault)
        switch self {
        case .partialBody(let sent, let declared):
            try container.encode(sent, forKey: .partialBodySent)
            try container.encode(declared, forKey: .partialBodyDeclared)
        case .stall(let sent): try container.encode(sent, forKey: .partialBodySent)
        case .status(let status): try container.encode(status, forKey: .status)
        case .malformedResponse(let bytes): try container.encode(bytes.base64EncodedString(), forKey: .base64Body)
        case .closeWithoutResponse, .reset, .malformedStatusLine, .malformedHeaders, .noResponse: break
        }
    }
}
