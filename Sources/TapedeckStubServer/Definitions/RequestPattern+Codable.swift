import Foundation
import TapedeckCore

/// A request pattern's JSON form: `method` (any when absent), at most one of `path` (exact), `pathTemplate` and
/// `pathRegex` (any path when none), `url` (a ``ValuePattern`` on the path and query together, as sent), `query`,
/// `headers` and `cookies` (name → ``ValuePattern``), `body` (a ``BodyPattern``), and `graphql` (a ``GraphQLPattern``:
/// `operationName`, a ``ValuePattern``; `variables`, JSON the variables must contain; `exactVariables`, `true` when
/// they must be exactly that).
///
/// ```json
/// {"method": "POST", "pathTemplate": "/users/{id}", "query": {"dryRun": {"absent": true}}, "body": {"jsonPartial": {"name": "Ada"}}}
/// {"method": "POST", "path": "/graphql", "graphql": {"operationName": {"equalTo": "Hero"}, "variables": {"episode": "JEDI"}}}
/// ```
extension RequestPattern: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case method, path, pathTemplate, pathRegex, url, query, headers, cookies, body, graphql }

    /// Decodes a pattern, refusing a second path condition, a path without a leading `/` and a regular expression
    /// that does not compile.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decodeIfPresent(String.self, forKey: .method).map { HTTPMethod($0.uppercased()) })
        let path = try container.decodeIfPresent(String.self, forKey: .path)
        let pathTemplate = try container.decodeIfPresent(String.self, forKey: .pathTemplate)
        let pathRegex = try container.decodeIfPresent(String.self, forKey: .pathRegex)
        let given = [("path", path), ("pathTemplate", pathTemplate), ("pathRegex", pathRegex)].filter { $0.1 != nil }
        if given.count > 1 {
            throw DecodingError.definition("give at most one of path, pathTemplate and pathRegex, not \(given.map(\.0).joined(separator: " and "))",
                                           at: decoder.codingPath)
        }
        if let path {
            guard path.hasPrefix("/") else {
                throw DecodingError.dataCorruptedError(forKey: .path, in: container, debugDescription: "must start with \"/\", got \"\(path)\"")
            }
            self.path = .exact(path)
        }
        if let pathTemplate {
            guard pathTemplate.hasPrefix("/") else {
                throw DecodingError.dataCorruptedError(forKey: .pathTemplate, in: container,
                                                       debugDescription: "must start with \"/\", got \"\(pathTemplate)\"")
            }
            self.path = .template(pathTemplate)
        }
        if let pathRegex {
            do { self.path = .regex(try StubRegex(pathRegex)) } catch {
                throw DecodingError.dataCorruptedError(forKey: .pathRegex, in: container, debugDescription: error.description)
            }
        }
        url = try container.decodeIfPresent(ValuePattern.self, forKey: .url)
        cookies = try container.decodeIfPresent([String: ValuePattern].self, forKey: .cookies) ?? [:]
        query = try container.decodeIfPresent([String: ValuePattern].self, forKey: .query) ?? [:]
        headers = try container.decodeIfPresent([String: ValuePattern].self, forKey: .headers) ?? [:]
        body = try container.decodeIfPresent(BodyPattern.self, forKey: .body)
        graphQL = try container.decodeIfPresent(GraphQLPattern.self, forKey: .graphql)
    }

    /// Encodes the conditions that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(method?.rawValue, forKey: .method)
        switch path {
        case .exact(let path): try container.encode(path, forKey: .path)
        case .template(let template): try container.encode(template, forKey: .pathTemplate)
        case .regex(let regex): try container.encode(regex.pattern, forKey: .pathRegex)
        case nil: break
        }
        try container.encodeIfPresent(url, forKey: .url)
        if !query.isEmpty { try container.encode(query, forKey: .query) }
        if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
        if !cookies.isEmpty { try container.encode(cookies, forKey: .cookies) }
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(graphQL, forKey: .graphql)
    }
}
