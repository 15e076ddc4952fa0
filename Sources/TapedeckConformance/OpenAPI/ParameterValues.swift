import TapedeckCore

/// Turns the text of a parameter (path segment, query value, header, cookie) into the JSON value its schema
/// describes: numbers and booleans parsed when the schema asks for them, arrays split by the style's separator or
/// gathered from repeated query pairs. Text that does not parse stays a string, so the schema reports the mismatch.
struct ParameterValues {
    let program: SchemaProgram

    func value(of texts: [String], for rule: ParameterRule) -> JSONValue {
        guard let schema = rule.schema else { return .string(texts.first ?? "") }
        let types = declaredTypes(schema)
        if types.contains(.array) {
            let items = rule.exploded ? texts : texts.flatMap { text in
                text.isEmpty ? [] : text.split(separator: rule.separator, omittingEmptySubsequences: false).map(String.init)
            }
            let itemTypes = itemSchema(of: schema).map(declaredTypes) ?? []
            return .array(items.map { scalar($0, types: itemTypes) })
        }
        return scalar(texts.last ?? "", types: types)
    }

    private func scalar(_ text: String, types: JSONTypes) -> JSONValue {
        if types.contains(.integer) || types.contains(.number), let number = Double(text), number.isFinite { return .number(number) }
        if types.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains(.null), text.isEmpty || text == "null" { return .null }
        if types.contains(.object) || (types.contains(.array) && text.hasPrefix("[")), let json = JSONValue(parsing: Data(text.utf8)) {
            return json
        }
        return .string(text)
    }

    /// The `type` of a schema, following `$ref`s and looking into `allOf`/`anyOf`/`oneOf` when it has none.
    private func declaredTypes(_ index: Int) -> JSONTypes {
        var visited: Set<Int> = []
        return declaredTypes(index, visited: &visited)
    }

    private func declaredTypes(_ index: Int, visited: inout Set<Int>) -> JSONTypes {
        guard visited.insert(index).inserted else { return [] }
        let node = program.nodes[index]
        if let types = node.types { return types }
        var types: JSONTypes = []
        for sub in [node.reference].compactMap({ $0 }) + node.allOf + node.anyOf + node.oneOf {
            types.formUnion(declaredTypes(sub, visited: &visited))
        }
        return types
    }

    private func itemSchema(of index: Int) -> Int? {
        var current = index
        for _ in 0..<16 {
            let node = program.nodes[current]
            if let items = node.items { return items }
            guard let next = node.reference else { return nil }
            current = next
        }
        return nil
    }
}

import Foundation
