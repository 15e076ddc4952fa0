import Foundation
import TapedeckCore

/// The `graphQL` match rule's comparison of two GraphQL requests, and the near-miss line that names the operation
/// and what differs. Pure logic over ``GraphQLRequest``.
///
/// Two operations match when they have the same name, the same persisted-query hash when both send one (else the
/// same normalized document), both send the document text or both do not, and the same variables as JSON values
/// (member order and number spelling ignored; absent, `null` and `{}` are the same).
enum GraphQLComparison {
    /// `nil` when the requests match, or a line saying how they differ. `ignoring` holds `JSONPath`s inside the
    /// variables (`input.clientMutationId`, `*.ts`) that are not compared.
    static func difference(live: GraphQLRequest, recorded: GraphQLRequest, ignoring: Set<JSONPath>) -> String? {
        if live.isBatch != recorded.isBatch || live.operations.count != recorded.operations.count {
            return "graphql: recorded \(recorded.summary), request \(live.summary)"
        }
        for (index, (a, b)) in zip(live.operations, recorded.operations).enumerated() {
            if let difference = difference(live: a, recorded: b, ignoring: ignoring) {
                return live.isBatch ? "graphql batch member \(index): " + difference : "graphql " + difference
            }
        }
        return nil
    }

    /// How two operations differ, starting with the operation (`operation: recorded …, request …` or the
    /// recorded operation's summary followed by what differs).
    static func difference(live: GraphQLOperation, recorded: GraphQLOperation, ignoring: Set<JSONPath>) -> String? {
        if live.name != recorded.name || (live.kind != nil && recorded.kind != nil && live.kind != recorded.kind) {
            return "operation: recorded \(recorded.summary), request \(live.summary)"
        }
        var lines: [String] = []
        if (live.document == nil) != (recorded.document == nil) {
            lines.append(recorded.document == nil
                ? "recorded sends only the persisted-query hash, request sends the query text"
                : "recorded sends the query text, request sends only the persisted-query hash")
        }
        if let a = live.persistedQueryHash, let b = recorded.persistedQueryHash {
            if a != b { lines.append("persisted-query hash: recorded \(b), request \(a)") }
        } else if let a = live.document?.normalized, let b = recorded.document?.normalized, a != b {
            lines.append("query text differs (whitespace, commas and comments aside) " + firstDifference(a, b))
        }
        let variables = variableDifferences(live: live.variables, recorded: recorded.variables, ignoring: ignoring)
        if !variables.isEmpty { lines.append("variables " + variables.joined(separator: ", ")) }
        return lines.isEmpty ? nil : "\(recorded.summary): " + lines.joined(separator: "; ")
    }

    /// One entry per top-level variable that differs (`id: recorded "1", request "2"`; for nested values, the path
    /// of the first difference inside it), in the recorded order and then the request's extra ones.
    static func variableDifferences(live: CassetteJSON, recorded: CassetteJSON, ignoring: Set<JSONPath>) -> [String] {
        let a = live.objectValue ?? [], b = recorded.objectValue ?? []
        var names: [String] = []
        for member in b + a where !names.contains(member.key) { names.append(member.key) }
        var found: [String] = []
        for name in names {
            let x = a.first { $0.key == name }?.value, y = b.first { $0.key == name }?.value
            switch (x, y) {
            case (nil, nil):
                continue
            case (let x?, let y?):
                guard let path = x.firstDifference(from: y, ignoring: ignoring, path: name) else { continue }
                found.append("\(path): recorded \(shown(y, at: path, from: name)), request \(shown(x, at: path, from: name))")
            default:
                if JSONPathPattern.matches(name, any: ignoring) { continue }
                found.append("\(name): recorded \(y.map { shown($0) } ?? "absent"), request \(x.map { shown($0) } ?? "absent")")
            }
        }
        return found
    }

    /// The compact JSON of the value at dotted `path` inside `value` (which sits at `root`), up to 40 characters.
    private static func shown(_ value: CassetteJSON, at path: String, from root: String) -> String {
        let inside = path.dropFirst(root.count + 1)
        let found = inside.isEmpty ? value : JSONPath(dotted: String(inside)).select(in: value).first
        return found.map { shown($0) } ?? "absent"
    }

    private static func shown(_ value: CassetteJSON) -> String {
        Shown.truncated(String(decoding: CassetteJSON.serialize(value), as: UTF8.self), limit: 40)
    }

    /// `at character 57: recorded "…name friends{…", request "…name email{…"`.
    private static func firstDifference(_ live: String, _ recorded: String) -> String {
        let a = Array(live.unicodeScalars), b = Array(recorded.unicodeScalars)
        var index = 0
        while index < a.count, index < b.count, a[index] == b[index] { index += 1 }
        func excerpt(_ scalars: [Unicode.Scalar]) -> String {
            let start = max(0, index - 12), end = min(scalars.count, index + 20)
            var text = String(String.UnicodeScalarView(scalars[start..<end]))
            if start > 0 { text = "…" + text }
            if end < scalars.count { text += "…" }
            return "\"\(text)\""
        }
        return "at character \(index + 1): recorded \(excerpt(b)), request \(excerpt(a))"
    }
}
