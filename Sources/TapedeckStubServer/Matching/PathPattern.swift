import Foundation

/// How a request's path is matched. The path is compared both as sent (percent-encoded) and decoded.
///
/// - ``exact(_:)``: the same path.
/// - ``template(_:)``: segment by segment, where `{name}` matches any one non-empty segment (`/bytes/{n}` matches
///   `/bytes/1024`, not `/bytes` or `/bytes/1/2`) and a final `**` matches the rest, none included (`/files/**`
///   matches `/files` and `/files/a/b`).
/// - ``regex(_:)``: a regular expression matching the whole path.
///
/// A string literal is a template when it contains `{` or ends in `/**`, and exact otherwise.
///
/// ```swift
/// let users: PathPattern = "/users/{id}"
/// let any: PathPattern = .regex("/v[0-9]+/.*")
/// ```
public enum PathPattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Exactly this path.
    case exact(String)
    /// A template with `{name}` segments and an optional final `**`.
    case template(String)
    /// A regular expression for the whole path.
    case regex(StubRegex)

    /// A template when `value` contains `{` or ends in `/**`, exact otherwise.
    public init(stringLiteral value: String) { self = Self.inferred(value) }

    /// A template when `path` contains `{` or ends in `/**`, exact otherwise.
    public static func inferred(_ path: String) -> PathPattern {
        path.contains("{") || path.hasSuffix("/**") || path == "**" ? .template(path) : .exact(path)
    }

    /// Whether `path` (as sent) or its decoded form fits the pattern.
    func matches(path: String, decodedPath: String) -> Bool {
        fits(path) || (decodedPath != path && fits(decodedPath))
    }

    private func fits(_ path: String) -> Bool {
        switch self {
        case .exact(let expected): return path == expected
        case .template(let template): return Self.parameters(in: path, template: template) != nil
        case .regex(let regex): return regex.matchesWhole(path)
        }
    }

    /// For near-miss reports: says when a regular expression gave up on the path (`RegexStepLimit` (TapedeckCore)), else empty.
    func limitNote(path: String, decodedPath: String) -> String {
        guard case .regex(let regex) = self else { return "" }
        return regex.limitNote(decodedPath == path ? [path] : [path, decodedPath])
    }

    /// The values of a template's `{name}` segments in `decodedPath` (empty for other patterns or no match).
    func parameters(decodedPath: String) -> [String: String] {
        guard case .template(let template) = self else { return [:] }
        return Self.parameters(in: decodedPath, template: template) ?? [:]
    }

    /// The `{name}` values when `path` fits `template`, `nil` when it does not.
    static func parameters(in path: String, template: String) -> [String: String]? {
        if path == template { return [:] }
        var pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        var templateSegments = template.split(separator: "/", omittingEmptySubsequences: false)
        if templateSegments.last == "**" {
            templateSegments.removeLast()
            guard pathSegments.count >= templateSegments.count else { return nil }
            pathSegments = Array(pathSegments.prefix(templateSegments.count))
        }
        guard pathSegments.count == templateSegments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, pattern) in zip(pathSegments, templateSegments) {
            if pattern.hasPrefix("{") && pattern.hasSuffix("}") {
                guard !segment.isEmpty else { return nil }
                values[String(pattern.dropFirst().dropLast())] = String(segment)
            } else if segment != pattern {
                return nil
            }
        }
        return values
    }

    /// The exact path, when this pattern is one: the key the stub index files it under.
    var exactPath: String? {
        if case .exact(let path) = self { return path }
        return nil
    }

    /// The pattern's text, for messages.
    var text: String {
        switch self {
        case .exact(let path), .template(let path): return path
        case .regex(let regex): return regex.description
        }
    }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .exact(let path): return "path \(path)"
        case .template(let path): return "path template \(path)"
        case .regex(let regex): return "path matching \(regex)"
        }
    }
}
