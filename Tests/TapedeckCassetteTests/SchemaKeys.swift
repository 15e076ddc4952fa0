import TapedeckCassette

/// The keys a JSON Schema defines, and the keys a document uses, named by the definition that owns them:
/// `response.url`, `error.transportCode`, `interaction.tls.peerCertificates`; a string of an `enum` or `const` adds
/// `body.format=pretty`. The schema's own keywords are followed: `properties`, `items`, `prefixItems`, `oneOf`,
/// `anyOf`, `allOf` and local `$ref`s to `#/$defs/NAME` (whose keys are owned by `NAME`). A property whose schema
/// has no properties (the `json` document of a body) is not looked into.
struct SchemaKeys {
    let schema: CassetteJSON

    /// Every key and enumerated string the schema defines.
    var defined: Set<String> {
        var walk = Walk(schema: schema)
        walk.visit(schema, owner: "cassette", document: nil)
        return walk.keys
    }

    /// The schema's keys and enumerated strings that `document` uses, and the keys it has that the schema does not
    /// define, as `owner.key?` (`response.colour?`).
    func used(by document: CassetteJSON) -> (keys: Set<String>, undeclared: Set<String>) {
        var walk = Walk(schema: schema)
        walk.visit(schema, owner: "cassette", document: document)
        return (walk.keys, walk.undeclared)
    }

    /// One walk over the schema, alone (`document` is `nil`) or beside a document.
    private struct Walk {
        let schema: CassetteJSON
        var keys = Set<String>()
        var undeclared = Set<String>()
        /// The definitions already listed; each is listed once, since its keys carry its name wherever it is used.
        var expanded = Set<String>()

        mutating func visit(_ node: CassetteJSON, owner: String, document: CassetteJSON?) {
            var node = node
            var owner = owner
            if let reference = node["$ref"]?.stringValue {
                let name = String(reference.dropFirst("#/$defs/".count))
                guard reference.hasPrefix("#/$defs/"), let definition = schema["$defs"]?[name] else {
                    keys.insert("unresolved $ref \(reference)")
                    return
                }
                if document == nil, !expanded.insert(name).inserted { return }
                node = definition
                owner = name
            }
            let branches = [node] + ["oneOf", "anyOf", "allOf"].flatMap { node[$0]?.arrayValue ?? [] }
            var declared = Set<String>()
            for branch in branches {
                for property in branch["properties"]?.objectValue ?? [] {
                    declared.insert(property.key)
                    visit(property: property, owner: owner, document: document)
                }
                if let items = branch["items"] {
                    let elements: [CassetteJSON?] = document.map { ($0.arrayValue ?? []).map(Optional.some) } ?? [nil]
                    for element in elements { visit(items, owner: owner, document: element) }
                }
                for (index, item) in (branch["prefixItems"]?.arrayValue ?? []).enumerated() {
                    guard let document else {
                        visit(item, owner: owner, document: nil)
                        continue
                    }
                    if let elements = document.arrayValue, index < elements.count { visit(item, owner: owner, document: elements[index]) }
                }
            }
            if let members = document?.objectValue, !declared.isEmpty {
                for member in members where !declared.contains(member.key) { undeclared.insert("\(owner).\(member.key)?") }
            }
        }

        private mutating func visit(property: CassetteJSON.Member, owner: String, document: CassetteJSON?) {
            let key = "\(owner).\(property.key)"
            let enumerated = (property.value["enum"]?.arrayValue ?? []) + (property.value["const"].map { [$0] } ?? [])
            guard let document else {
                keys.insert(key)
                for case .string(let value) in enumerated { keys.insert("\(key)=\(value)") }
                visit(property.value, owner: key, document: nil)
                return
            }
            guard let value = document[property.key] else { return }
            keys.insert(key)
            if case .string(let text) = value, !enumerated.isEmpty { keys.insert("\(key)=\(text)") }
            visit(property.value, owner: key, document: value)
        }
    }
}
