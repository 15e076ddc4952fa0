extension CassetteJSON: JSONPathTraversable {
    /// The value of the first member named `key`, when this is an object.
    public func jsonPathMember(_ key: String) -> CassetteJSON? { self[key] }
    /// The elements, when this is an array.
    public var jsonPathElements: [CassetteJSON]? { arrayValue }
    /// The member values in document order, when this is an object.
    public var jsonPathMemberValues: [CassetteJSON]? { objectValue?.map(\.value) }
}

/// The ignored paths of JSON-semantic matching (``MatchRule/json(ignoring:)``, GraphQL variables): whether a place a
/// walk reports (`items.0.ts`) is one of them, by `JSONPath.matches(dottedLocation:)`. The paths come parsed, so a
/// walk over a large body does not read them again at every place.
enum JSONPathPattern {
    /// Whether `location` (e.g. `a.0.b`) matches one of `patterns` (e.g. `a.*.b`, `$.a[0].b`).
    static func matches(_ location: String, any patterns: Set<JSONPath>) -> Bool {
        patterns.contains { $0.matches(dottedLocation: location) }
    }
}

/// The ignored paths as far as a walk down a document has followed them: the ones that can still match a place
/// below the walk's current one. Stepping down a member or an element answers whether that place is ignored
/// exactly as ``JSONPathPattern/matches(_:any:)`` would of its dotted location, without writing the location or
/// reading the paths at every place; once no path can match any more (the common case, outside the few members
/// named), the walk below costs nothing.
///
/// ```swift
/// let root = IgnoredPaths(["items.*.ts"])
/// let items = root.below("items")      // still following items.*.ts
/// items?.below("0")?.below("ts")       // nil: items.0.ts is ignored
/// root.below("name")?.isEmpty          // true: nothing below name is ignored
/// ```
struct IgnoredPaths: Sendable {
    /// One piece of a dotted location a path step accepts.
    private enum Piece: Sendable {
        case literal(Substring)
        case any
    }

    /// The paths, each as the pieces of a dotted location it accepts.
    private let patterns: [[Piece]]
    /// For each path still followed: its index and how many of its pieces the walk has matched.
    private var followed: [(pattern: Int, matched: Int)]
    /// Whether the walk's dotted location is empty (the root, or a member named "" of the root, and so on): a place
    /// below it is then named by its own name alone, as the walks write places, so every path starts afresh there.
    private var isAtEmptyLocation: Bool

    /// Nothing ignored.
    static let none = IgnoredPaths([])

    /// The walk at the root, or at dotted `location` when it starts below.
    init(_ paths: Set<JSONPath>, at location: String = "") {
        patterns = paths.compactMap(Self.pieces)
        followed = patterns.indices.map { ($0, 0) }
        isAtEmptyLocation = location.isEmpty
        if !location.isEmpty { advance(over: location) }
    }

    /// Whether no place below is ignored.
    var isEmpty: Bool { followed.isEmpty && (!isAtEmptyLocation || patterns.isEmpty) }

    /// The walk one member (or element, by its index written out) further down, or `nil` when that place is ignored.
    func below(_ name: String) -> IgnoredPaths? {
        if isEmpty { return self }
        var next = self
        if isAtEmptyLocation { next.followed = patterns.indices.map { ($0, 0) } }
        next.isAtEmptyLocation = isAtEmptyLocation && name.isEmpty
        return next.advance(over: name) ? nil : next
    }

    /// The walk one element further down (see ``below(_:)``).
    func below(index: Int) -> IgnoredPaths? {
        isEmpty ? self : below(String(index))
    }

    /// Moves over the pieces of `name` (a member name may hold dots, which a dotted location splits); returns whether
    /// a path ends exactly there. Paths that end or fail drop out.
    @discardableResult
    private mutating func advance(over name: String) -> Bool {
        for piece in name.split(separator: ".", omittingEmptySubsequences: false) {
            followed = followed.compactMap { state in
                let pieces = patterns[state.pattern]
                guard state.matched < pieces.count else { return nil }
                switch pieces[state.matched] {
                case .any: return (state.pattern, state.matched + 1)
                case .literal(let expected): return expected == piece ? (state.pattern, state.matched + 1) : nil
                }
            }
            if followed.isEmpty { return false }
        }
        let ended = followed.contains { $0.matched == patterns[$0.pattern].count }
        followed.removeAll { $0.matched == patterns[$0.pattern].count }
        return ended
    }

    /// The pieces `path` accepts, as `JSONPath.matches(dottedLocation:)` reads its steps; `nil` for a path that no
    /// dotted location matches (an index counted from the end).
    private static func pieces(_ path: JSONPath) -> [Piece]? {
        var pieces: [Piece] = []
        for step in path.steps {
            switch step {
            case .name(let name): pieces.append(.literal(Substring(name)))
            case .wildcard: pieces.append(.any)
            case .index(let index):
                guard index >= 0 else { return nil }
                pieces.append(.literal(Substring(String(index))))
            case .member(let name):
                pieces += name.split(separator: ".", omittingEmptySubsequences: false).map { .literal($0) }
            }
        }
        return pieces
    }
}
