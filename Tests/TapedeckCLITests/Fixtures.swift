import Foundation
import TapedeckCassette

/// Cassettes the tests write into temporary folders.
enum Fixtures {
    static func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    static func json(_ text: String) -> CassetteBody { CassetteBody(Data(text.utf8)) }

    /// A small, clean contract: users API.
    static let users = Cassette(interactions: [
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users/1", headers: ["Accept": "application/json"]),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", headers: ["Content-Type": "application/json", "Date": "Thu, 15 Jan 2026 10:00:00 GMT"],
                                     body: json(#"{"id":1,"name":"Ada","age":36,"tags":["admin"]}"#))),
            recordedAt: date("2026-01-15T10:00:00Z")),
        Interaction(
            request: .init(method: "POST", url: "http://api.example.com/users",
                           headers: ["Content-Type": "application/json", "Authorization": "Bearer [REDACTED]"], body: json(#"{"name":"Bob"}"#)),
            outcome: .response(.init(statusCode: 201, reasonPhrase: "Created", headers: ["Content-Type": "application/json; charset=utf-8"],
                                     body: json(#"{"id":2,"name":"Bob","age":null}"#))),
            recordedAt: date("2026-01-15T10:00:01Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", headers: ["Content-Type": "application/json"],
                                     body: json(#"[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]"#))),
            recordedAt: date("2026-01-15T10:00:02Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/down"),
            outcome: .failure(.init(code: -1004, message: "Could not connect to the server.")),
            recordedAt: date("2026-01-15T10:00:03Z")),
    ])

    /// A cassette with secrets that escaped redaction.
    static var leaky: Cassette { Cassette(interactions: [
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/items?api_key=abc123def456&page=2",
                           headers: ["Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.c3ViMTIzNDU2", "X-Trace": "Zk9qR2x1bW5vcFF3ZXJ0eXVpb3A"]),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"],
                                     body: json(#"{"items":[],"session":{"password":"hunter22","note":"fine"}}"#))),
            recordedAt: date("2001-03-01T08:00:00Z")),
        Interaction(
            request: .init(method: "POST", url: "http://api.example.com/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                           body: CassetteBody(Data("user=ann&password=swordfish".utf8))),
            outcome: .response(.init(statusCode: 204, headers: ["Set-Cookie": "[REDACTED]"])),
            recordedAt: Date()),
    ]) }

    /// A cassette whose secret is copied across interactions: a token a response hands out (not redacted) is echoed
    /// in a later request's URL path and a header; the benign look-alikes around it must not be reported.
    static var echoing: Cassette { Cassette(interactions: [
        Interaction(
            request: .init(method: "POST", url: "http://api.example.com/oauth/token", headers: ["Authorization": "Basic [REDACTED]"]),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json", "Access-Control-Allow-Credentials": "true"],
                                     body: json(#"{"access_token":"tok-5f4e3d2c1b0a9f8e","token_type":"bearer","expires_in":3600}"#))),
            recordedAt: date("2026-01-15T10:00:00Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/sessions/tok-5f4e3d2c1b0a9f8e/items?page=2",
                           headers: ["Authorization": "Bearer [REDACTED]", "X-Debug": "session tok-5f4e3d2c1b0a9f8e"]),
            outcome: .response(.init(statusCode: 200, headers: ["X-RateLimit-Remaining-Tokens": "39000"])),
            recordedAt: date("2026-01-15T10:00:01Z")),
    ]) }

    /// Writes `cassette` as `name` in `folder`.
    @discardableResult
    static func write(_ cassette: Cassette, _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try CassetteCodec.encode(cassette).write(to: url)
        return url
    }
}
