/// How many requests a verification expects.
///
/// ```swift
/// try server.verify(RequestPattern(.post, "/orders"), count: .exactly(1))
/// try server.verify(RequestPattern(.delete, "/orders/{id}"), count: .never)
/// ```
public enum CountExpectation: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this many.
    case exactly(Int)
    /// At least this many.
    case atLeast(Int)
    /// At most this many.
    case atMost(Int)
    /// Within this range.
    case between(ClosedRange<Int>)

    /// None at all.
    public static let never = CountExpectation.exactly(0)
    /// Exactly one.
    public static let once = CountExpectation.exactly(1)

    /// Whether `count` meets the expectation.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): return count == expected
        case .atLeast(let minimum): return count >= minimum
        case .atMost(let maximum): return count <= maximum
        case .between(let range): return range.contains(count)
        }
    }

    /// How messages and reports print it.
    public var description: String {
        func requests(_ n: Int) -> String { "\(n) request\(n == 1 ? "" : "s")" }
        switch self {
        case .exactly(let expected): return "exactly \(requests(expected))"
        case .atLeast(let minimum): return "at least \(requests(minimum))"
        case .atMost(let maximum): return "at most \(requests(maximum))"
        case .between(let range): return "between \(range.lowerBound) and \(requests(range.upperBound))"
        }
    }
}
