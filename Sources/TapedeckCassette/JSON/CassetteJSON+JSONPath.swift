extension CassetteJSON: JSONPathTraversable {
    /// The value of the first member named `key`, when this is an object.
    public func jsonPathMember(_ key: String) -> CassetteJSON? { self[key] }
    /// The elements, when this is an array.
    public var jsonPathElements: [CassetteJSON]? { arrayValue }
    /// The member values in document order, when this is an object.
    public var jsonPathMemberValues: [CassetteJSON]? { objectValue?.map(\.value) }
}

/// The ignored paths of JSON-semantic matching (``MatchRule/json(ignoring:)``, GraphQL variables), which are given as
/// text: whether a place a walk reports (`items.0.ts`) is one of them, by `JSONPath.matches(dottedLocation:)`. An
/// expression that is not a path matches no place.
enum JSONPathPattern {
    /// Whether `location` (e.g. `a.0.b`) matches one of `patterns` (e.g. `a.*.b`, `$.a[0].b`).
    static func matches(_ location: String, any patterns: Set<String>) -> Bool {
        patterns.contains { (try? JSONPath($0))?.matches(dottedLocation: location) ?? false }
    }
}
