import Foundation

/// Chooses recorded interactions by method and URL, for fault sweeps: `GET /v1/me`, `/v1/*` (any method),
/// `POST *`, `* /v1/items/*`, or a full URL `https://api.example.com/v1/*`. `*` matches any run of characters;
/// a path pattern is matched against the path and query, a URL pattern against the whole URL. Methods ignore case.
///
/// ```swift
/// let pattern = InteractionPattern("GET /v1/*")
/// pattern.matches(Interaction.Request(method: "GET", url: "https://api.example.com/v1/me"))   // true
/// ```
public struct InteractionPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The method, or `nil` for any.
    public var method: String?
    /// The path (or URL) pattern.
    public var target: String

    /// Parses `[METHOD ]TARGET`.
    public init(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            method = parts[0] == "*" ? nil : parts[0].uppercased()
            target = parts[1].trimmingCharacters(in: .whitespaces)
        } else {
            method = nil
            target = parts.first ?? "*"
        }
    }

    /// Parses `[METHOD ]TARGET`.
    public init(stringLiteral value: String) { self.init(value) }

    /// How messages and reports print it.
    public var description: String { (method.map { $0 + " " } ?? "") + target }

    /// Whether `request` is chosen.
    public func matches(_ request: Interaction.Request) -> Bool {
        if let method, method != request.method.uppercased() { return false }
        let subject = target.contains("://") ? request.url : URLParts(request.url).pathAndQuery
        return Self.glob(Array(target.utf8), Array(subject.utf8))
    }

    /// `*`-only globbing, iterative with backtracking to the last star.
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var (p, t) = (0, 0)
        var star: (p: Int, t: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                p = last.p + 1
                t = last.t + 1
                star = (last.p, last.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}

/// A (interaction, fault) pair a sweep expects to fail, because the code under test is known not to handle it yet:
/// its failure is reported as known, and its passing as fixed.
///
/// ```swift
/// let known = try KnownFailure("GET /v1/me · 503 with Retry-After")
/// ```
public struct KnownFailure: Sendable, Hashable, CustomStringConvertible {
    /// Which interactions.
    public var interaction: InteractionPattern
    /// Which fault, or `nil` for every fault.
    public var fault: InteractionFault?

    /// A known failure of the interactions `interaction` chooses under `fault` (every fault when `nil`).
    public init(_ interaction: InteractionPattern, fault: InteractionFault?) {
        self.interaction = interaction
        self.fault = fault
    }

    /// Parses `PATTERN · FAULT` (or `PATTERN | FAULT`; `*` as the fault for every fault).
    ///
    /// - Throws: ``FaultSweepError/invalidKnownFailure(_:)``, or ``FaultSweepError/unknownFault(_:known:)``.
    public init(_ text: String) throws(FaultSweepError) {
        let separator = text.contains("·") ? "·" : "|"
        let parts = text.components(separatedBy: separator)
        guard parts.count == 2 else { throw FaultSweepError.invalidKnownFailure(text) }
        let faultName = parts[1].trimmingCharacters(in: .whitespaces)
        interaction = InteractionPattern(parts[0])
        fault = faultName == "*" ? nil : try InteractionFault(named: faultName)
    }

    /// How messages and reports print it.
    public var description: String { "\(interaction) · \(fault.map(String.init(describing:)) ?? "*")" }

    /// Whether the pair of `request` and `fault` is this known failure.
    public func covers(_ request: Interaction.Request, _ fault: InteractionFault) -> Bool {
        (self.fault == nil || self.fault == fault) && interaction.matches(request)
    }
}
