/// A JSON tree a ``JSONPath`` walks: `JSONValue` here, `CassetteJSON` in TapedeckCassette. The walk is written once,
/// over these three questions.
public protocol JSONPathTraversable {
    /// The value of the (first) member named `key`, when this is an object that has one.
    func jsonPathMember(_ key: String) -> Self?
    /// The elements, when this is an array.
    var jsonPathElements: [Self]? { get }
    /// The member values in the order a wildcard visits them (document order; key order for a tree without one),
    /// when this is an object.
    var jsonPathMemberValues: [Self]? { get }
}

extension JSONPath {
    /// The values the path selects in `root`, in document order (`[*]` over an object visits its members in the
    /// tree's order). Member names are whole: `a.b` does not reach a member named `"a.b"` (see
    /// ``matches(dottedLocation:)`` for the places cassette rules name).
    ///
    /// ```swift
    /// JSONPath("$.list[*].id").select(in: ["list": [["id": 1], ["id": 2]]] as JSONValue)   // [1, 2]
    /// ```
    public func select<Tree: JSONPathTraversable>(in root: Tree) -> [Tree] {
        var current = [root]
        for step in steps {
            var next: [Tree] = []
            for value in current {
                switch step {
                case .name(let name):
                    if let member = value.jsonPathMember(name) {
                        next.append(member)
                    } else if let elements = value.jsonPathElements, let index = Self.index(spelledAs: name), index < elements.count {
                        next.append(elements[index])
                    }
                case .member(let name):
                    if let member = value.jsonPathMember(name) { next.append(member) }
                case .index(let index):
                    guard let elements = value.jsonPathElements else { continue }
                    let position = index < 0 ? elements.count + index : index
                    if elements.indices.contains(position) { next.append(elements[position]) }
                case .wildcard:
                    next += value.jsonPathElements ?? value.jsonPathMemberValues ?? []
                }
            }
            current = next
        }
        return current
    }

    /// Whether the path names the place a walk spells as dotted text, as cassette rules (ignored paths, JSON-path
    /// redaction) report places: member names and array indices joined by `.` (`items.0.token`). A name step matches
    /// its part of the text, `*` any one part, `[N]` the part `N` (a negative index matches no place), `['a.b']` the
    /// parts `a.b`; so a member whose name holds a dot is reached by the dotted spelling of its parts, as it always
    /// was in these rules.
    ///
    /// ```swift
    /// JSONPath(dotted: "items.*.token").matches(dottedLocation: "items.3.token")   // true
    /// JSONPath("$.items[3].token").matches(dottedLocation: "items.3.token")        // true
    /// ```
    public func matches(dottedLocation location: String) -> Bool {
        var parts = location.split(separator: ".", omittingEmptySubsequences: false)[...]
        for step in steps {
            switch step {
            case .name(let name):
                guard parts.popFirst() == Substring(name) else { return false }
            case .wildcard:
                guard parts.popFirst() != nil else { return false }
            case .index(let index):
                guard index >= 0, parts.popFirst() == Substring(String(index)) else { return false }
            case .member(let name):
                for piece in name.split(separator: ".", omittingEmptySubsequences: false) {
                    guard parts.popFirst() == piece else { return false }
                }
            }
        }
        return parts.isEmpty
    }

    /// The array index a name step spells (`"0"`, `"12"`; not `"00"` or `"-1"`), as a walk's dotted places write it.
    static func index(spelledAs name: String) -> Int? {
        guard let index = Int(name), index >= 0, String(index) == name else { return nil }
        return index
    }
}

extension JSONValue: JSONPathTraversable {
    /// The member named `key`, when this is an object.
    public func jsonPathMember(_ key: String) -> JSONValue? { objectValue?[key] }
    /// The elements, when this is an array.
    public var jsonPathElements: [JSONValue]? { arrayValue }
    /// The member values in key order (an object here keeps no other), when this is an object.
    public var jsonPathMemberValues: [JSONValue]? {
        objectValue.map { members in members.keys.sorted().map { members[$0]! } }
    }
}

extension JSONPath {
    /// Whether the path finds something in `json`, as WireMock's `matchesJsonPath` without a value pattern decides: a
    /// definite path must select a value that is not `null`, an empty array or an empty object; a path with a
    /// wildcard must select at least one value.
    public func hasMatch(in json: JSONValue) -> Bool {
        let selected = select(in: json)
        guard isDefinite else { return !selected.isEmpty }
        guard let value = selected.first else { return false }
        switch value {
        case .null: return false
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        default: return true
        }
    }

    /// The text a value pattern is checked against: for a definite path, the selected value (a string as is, anything
    /// else as compact JSON), none when nothing is selected; for a path with a wildcard, the selected values as one
    /// compact JSON array.
    public func texts(in json: JSONValue) -> [String] {
        let selected = select(in: json)
        if isDefinite { return selected.map(\.templateText) }
        return [JSONValue.array(selected).templateText]
    }
}
