extension JSONValue {
    /// This value without `null`s: members whose value is `null` are dropped from objects and `null` elements from
    /// arrays, at every depth (AFNetworking's `AFJSONObjectByRemovingKeysWithNullValues`). A top-level `null`
    /// stays `null`.
    ///
    /// ```swift
    /// let value: JSONValue = ["a": 1, "b": nil, "list": [["c": nil], nil]]
    /// value.removingNullValues()  // ["a": 1, "list": [[:]]]
    /// ```
    public func removingNullValues() -> JSONValue {
        switch self {
        case .array(let elements):
            return .array(elements.filter { !$0.isNull }.map { $0.removingNullValues() })
        case .object(let members):
            return .object(members.filter { !$0.value.isNull }.mapValues { $0.removingNullValues() })
        case .null, .bool, .number, .string:
            return self
        }
    }
}
