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
