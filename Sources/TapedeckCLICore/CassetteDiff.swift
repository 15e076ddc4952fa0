import Foundation
import TapedeckCassette

/// A semantic diff of two cassettes, interaction by interaction in recorded order: methods, URLs, headers (volatile
/// ones ignored, names case-insensitive), status, errors, and bodies (JSON compared as JSON, other bodies by bytes).
///
/// ```swift
/// let changes = CassetteDiff.compare(try .load(path: "a.json"), try .load(path: "b.json"))
/// for change in changes { print(change.line) }
/// ```
public enum CassetteDiff {
    /// Headers ignored by default: they change on every recording.
    public static let defaultVolatileHeaders: Set<String> = [
        "date", "age", "expires", "last-modified", "x-request-id", "x-runtime", "server-timing", "cf-ray",
        "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2", "traceparent", "content-length", "etag",
    ]

    /// One difference between the cassettes.
    public struct Change: Sendable, Hashable {
        /// Where, e.g. `interactions[1].response.body.user.age`.
        public var path: String
        /// The value in the first cassette, or `nil` when absent.
        public var old: String?
        /// The value in the second cassette, or `nil` when absent.
        public var new: String?

        /// `path: old → new`, with `(absent)` for a missing side.
        public var line: String { "\(path): \(old ?? "(absent)") → \(new ?? "(absent)")" }
    }

    /// The differences between `a` and `b`; empty when they are equivalent.
    public static func compare(_ a: LoadedCassette, _ b: LoadedCassette, volatileHeaders: Set<String> = defaultVolatileHeaders) -> [Change] {
        let left = a.cassette.interactions, right = b.cassette.interactions
        var changes: [Change] = []
        for index in 0..<max(left.count, right.count) {
            let base = "interactions[\(index)]"
            guard index < left.count else {
                changes.append(Change(path: base, old: nil, new: right[index].request.summary))
                continue
            }
            guard index < right.count else {
                changes.append(Change(path: base, old: left[index].request.summary, new: nil))
                continue
            }
            let x = left[index], y = right[index]
            func field(_ name: String, _ old: String, _ new: String) {
                if old != new { changes.append(Change(path: "\(base).\(name)", old: old, new: new)) }
            }
            field("request.method", x.request.method, y.request.method)
            field("request.url", x.request.url, y.request.url)
            changes += headers(x.request.headers, y.request.headers, path: "\(base).request.headers", volatile: volatileHeaders)
            changes += bodies(a.bodyData(x.request.body), b.bodyData(y.request.body), path: "\(base).request.body")
            switch (x.outcome, y.outcome) {
            case (.response(let r), .response(let s)):
                field("response.status", String(r.statusCode), String(s.statusCode))
                changes += headers(r.headers, s.headers, path: "\(base).response.headers", volatile: volatileHeaders)
                changes += bodies(a.bodyData(r.body), b.bodyData(s.body), path: "\(base).response.body")
            case (.failure(let f), .failure(let g)):
                field("error.code", String(f.code), String(g.code))
            case (.response(let r), .failure(let g)):
                changes.append(Change(path: "\(base).outcome", old: "status \(r.statusCode)", new: "error \(g.code)"))
            case (.failure(let f), .response(let s)):
                changes.append(Change(path: "\(base).outcome", old: "error \(f.code)", new: "status \(s.statusCode)"))
            }
        }
        return changes
    }

    static func headers(_ a: HTTPHeaders, _ b: HTTPHeaders, path: String, volatile: Set<String>) -> [Change] {
        func grouped(_ headers: HTTPHeaders) -> [(String, [String])] {
            var order: [String] = []
            var values: [String: [String]] = [:]
            for field in headers where !volatile.contains(field.name.lowercased()) {
                let key = field.name.lowercased()
                if values[key] == nil { order.append(key) }
                values[key, default: []].append(field.value)
            }
            return order.map { ($0, values[$0]!) }
        }
        let left = grouped(a), right = Dictionary(grouped(b), uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        for (name, values) in left where right[name] != values {
            changes.append(Change(path: "\(path).\(name)", old: values.joined(separator: ", "),
                                  new: right[name]?.joined(separator: ", ")))
        }
        let leftNames = Set(left.map(\.0))
        for (name, values) in grouped(b) where !leftNames.contains(name) {
            changes.append(Change(path: "\(path).\(name)", old: nil, new: values.joined(separator: ", ")))
        }
        return changes
    }

    static func bodies(_ a: Data, _ b: Data, path: String) -> [Change] {
        if a == b { return [] }
        if let x = CassetteJSON.parseBody(a), let y = CassetteJSON.parseBody(b) {
            return JSONDiff.differences(x, y).map { difference in
                Change(path: difference.path == "$" ? path : "\(path).\(difference.path)", old: difference.old, new: difference.new)
            }
        }
        return [Change(path: path, old: describe(a), new: describe(b))]
    }

    static func describe(_ data: Data) -> String {
        if data.isEmpty { return "(empty)" }
        if let text = String(validating: data, as: UTF8.self), text.count <= 60, !text.contains("\n") { return "\"\(text)\"" }
        return "\(data.count) bytes"
    }
}
