import Yams

/// YAML's merge key, `<<` (YAML 1.1's merge type): a mapping takes in the pairs of the mapping, or list of mappings,
/// that its `<<` names. Its own keys win over merged ones, and of a list the earlier mapping wins, as the merge type
/// says and as Yams' `YAMLDecoder` reads it. The pairs come in PyYAML's order (6.0.4, vcrpy's): merged ones first, a
/// list's mappings in their order, then the mapping's own.
///
/// ```swift
/// let node = try YAMLDocument.compose("base: &b {x: 1, y: 1}\nother: {<<: *b, y: 2}")
/// let other = try YAMLMerge.merged(node!["other"]!.mapping!)   // x: 1, y: 2
/// ```
package enum YAMLMerge {
    /// `mapping` with each `<<` replaced by what it merges in, each string key once, at its first place and with
    /// the value that wins; a mapping without `<<` as it is.
    ///
    /// - Throws: ``YAMLDocumentError`` at a `<<` whose value is not a mapping or a list of mappings.
    package static func merged(_ mapping: Node.Mapping) throws(YAMLDocumentError) -> Node.Mapping {
        guard mapping.contains(where: { isMergeKey($0.key) }) else { return mapping }
        var merged: [(key: Node, value: Node)] = []
        var own: [(key: Node, value: Node)] = []
        for (key, value) in mapping {
            guard isMergeKey(key) else {
                own.append((key, value))
                continue
            }
            let sources: [Node.Mapping]
            switch value {
            case .mapping(let source): sources = [source]
            case .sequence(let list) where list.allSatisfy({ $0.mapping != nil }): sources = list.compactMap(\.mapping)
            default:
                throw YAMLDocumentError(line: value.mark?.line, column: value.mark?.column,
                                        message: "a << merge takes a mapping or a list of mappings")
            }
            for source in sources { merged += try Self.merged(source).map { ($0.key, $0.value) } }
        }
        let result = combined(merged: merged, own: own, name: { $0.key.scalar?.string })
        return Node.Mapping(result.map { ($0.key, $0.value) }, mapping.tag, mapping.style, mapping.mark)
    }

    /// The pairs of a mapping whose `<<`s brought in `merged` (in their order) and that has `own` pairs besides:
    /// each named key once, at its first place, where an earlier merged mapping's key wins over a later one and the
    /// mapping's own key wins over both; a key with no name (not a string) is kept as it is.
    package static func combined<Key, Value>(
        merged: [(key: Key, value: Value)], own: [(key: Key, value: Value)], name: ((key: Key, value: Value)) -> String?
    ) -> [(key: Key, value: Value)] {
        var place: [String: Int] = [:]
        var result: [(key: Key, value: Value)] = []
        for pair in merged {
            if let name = name(pair) {
                guard place[name] == nil else { continue }   // an earlier mapping's key wins
                place[name] = result.count
            }
            result.append(pair)
        }
        for pair in own {
            if let name = name(pair), let index = place[name] {
                result[index].value = pair.value   // the mapping's own key wins, at the merged key's place
            } else {
                result.append(pair)
            }
        }
        return result
    }

    /// Whether `key` is the merge key: a plain `<<` (which the merge rule of Yams' resolver tags as a merge), or a
    /// `<<` tagged `!!merge`; a quoted `"<<"` is an ordinary key. Read by its style, so that a reader whose resolver
    /// has no merge rule (a regular expression run on every key) still finds it.
    package static func isMergeKey(_ key: Node) -> Bool {
        guard case .scalar(let scalar) = key else { return false }
        return isMergeKey(scalar.string, style: scalar.style, tag: scalar.tag.rawValue)
    }

    /// Whether a scalar key with this text, style and tag (as written; `""` for none) is the merge key.
    package static func isMergeKey(_ text: String, style: Node.Scalar.Style, tag: String) -> Bool {
        text == "<<" && (style == .plain || tag == Tag.Name.merge.rawValue)
    }
}
