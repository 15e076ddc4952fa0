import Foundation
import TapedeckCore
import TapedeckSession
import Tapedeck
import TapedeckStubServer

/// The session flows of the determinism suite: each is a few requests through one ``SessionPipeline`` (cookies, an
/// HTTP cache, stored credentials, a retry policy), and its *trail* is what the client saw at every step. The same
/// code runs live against ``server(secrets:)``, and replayed in this process or in a child process
/// (`tapedeck-flow-replay`), so the trails can be compared.
public enum SessionStateFlows {
    /// What the client saw after one request.
    public struct Step: Codable, Equatable, Sendable {
        public var status: Int
        public var finalURL: String
        public var body: String
        /// The cookie header the store would send to the server's root after this step.
        public var cookies: String
        /// Every request that reached the transport for this step: its request line, `Name: value` lines, and an
        /// in-memory body's text.
        public var sent: [[String]]
    }

    /// The values a flow's requests carry, fixed when it is recorded and given again to every replay.
    public struct Secrets: Codable, Sendable {
        public var session: String
        public var token: String
        public var expires: String

        /// New random values; `expires` an hour from now.
        public static func fresh() -> Secrets {
            Secrets(session: "sess-" + UUID().uuidString.lowercased(), token: "tok-" + UUID().uuidString.lowercased(),
                    expires: HTTPDate.format(Date().addingTimeInterval(3_600)))
        }
    }

    /// The flows by name.
    public static let names = ["cookies", "redirects", "revalidation", "freshness", "digest", "retry", "token"]

    /// An httpbin server with the routes the flows need beyond httpbin's: a login that answers a token, an endpoint
    /// that wants it back, and one that fails once with `Retry-After`.
    public static func server(secrets: Secrets) throws -> StubServer {
        let server = try StubServer.httpbin()
        let failures = FlakyCounter()
        server.route(.post, "/login") { _ in .json(Data(#"{"token":"\#(secrets.token)","user":"ada"}"#.utf8)) }
        server.route(.get, "/bearer") { request in
            request.headers["Authorization"] == "Bearer \(secrets.token)"
                ? .json(Data(#"{"authenticated":true}"#.utf8)) : StubResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
        }
        server.route(.get, "/flaky") { _ in
            failures.next() == 1 ? StubResponse(status: 503, headers: ["Retry-After": "1"]) : .text("recovered")
        }
        return server
    }

    /// Runs flow `name` against `base` over `transport` and returns its trail. Over a replaying transport the whole
    /// flow runs on the recording's clock, as a `.cassette` test does.
    public static func run(_ name: String, base: URL, secrets: Secrets, over transport: any HTTPTransport) async throws -> [Step] {
        let recorder = SentRequests(base: transport)
        var pipeline = SessionPipeline(cookies: CookieStore(), cache: HTTPCache())
        pipeline.interceptor = RetryPolicy(retryLimit: 2)
        let cookies = pipeline.cookies
        func url(_ path: String) -> URL { URL(string: base.absoluteString.trimmingSuffix("/") + path)! }
        return try await RecordedTime.run(over: transport) {
            var steps: [Step] = []
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                recorder.start()
                let response = try await pipeline.send(request, over: recorder, onEvent: nil)
                steps.append(Step(status: response.statusCode, finalURL: response.head.url.absoluteString,
                                  body: String(decoding: response.data ?? Data(), as: UTF8.self),
                                  cookies: cookies?.cookieHeader(for: url("/")) ?? "", sent: recorder.taken()))
                return response
            }
            switch name {
            case "cookies":
                _ = try await send(HTTPRequest(url: url("/cookies/set?session=\(secrets.session)")))
                _ = try await send(HTTPRequest(url: url("/cookies")))
                _ = try await send(HTTPRequest(url: url("/cookies/delete?session")))
            case "redirects":
                for code in [301, 302, 303, 307, 308] {
                    _ = try await send(HTTPRequest(method: .post, url: url("/redirect-to?url=/anything/\(code)&status_code=\(code)"),
                                                   headers: ["Content-Type": "application/json"], body: .data(Data(#"{"code":\#(code)}"#.utf8))))
                }
            case "revalidation":
                _ = try await send(HTTPRequest(url: url("/etag/v1")))
                _ = try await send(HTTPRequest(url: url("/etag/v1")))
                _ = try await send(HTTPRequest(url: url("/cache")))
                _ = try await send(HTTPRequest(url: url("/cache")))
            case "freshness":
                _ = try await send(HTTPRequest(url: url("/cache/60")))
                _ = try await send(HTTPRequest(url: url("/cache/60")))
                let expiring = url("/response-headers?Expires=\(secrets.expires.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                _ = try await send(HTTPRequest(url: expiring))
                _ = try await send(HTTPRequest(url: expiring))
            case "digest":
                let target = url("/digest-auth/auth/ada/lovelace-1815")
                pipeline.credentialStore.set(Credential(user: "ada", password: "lovelace-1815"),
                                             for: ProtectionSpace(urlScheme: "http", host: target.host!, port: target.port!, realm: "me@tapedeck.test"))
                _ = try await send(HTTPRequest(url: target))
            case "retry":
                _ = try await send(HTTPRequest(url: url("/flaky")))
            case "token":
                // Parameters from a dictionary, as an app sends them: the body's bytes must not depend on the
                // process's hash seed.
                let parameters: JSONValue = ["user": "ada", "password": .string(secrets.session), "remember": true,
                                             "scopes": ["read", "write"], "device": ["os": "linux", "model": "x1"], "locale": "en-GB"]
                let login = try await send(JSONRequestSerializer().request(method: .post, url: url("/login"), parameters: parameters))
                let token = (try? JSONSerialization.jsonObject(with: login.data ?? Data()) as? [String: String])?["token"] ?? ""
                _ = try await send(HTTPRequest(url: url("/bearer"), headers: ["Authorization": "Bearer \(token)"]))
            default:
                throw URLError(.unsupportedURL, failingURL: base, reason: "no flow named \(name)")
            }
            return steps
        }
    }
}

/// Counts calls, for a route that fails the first time.
private final class FlakyCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// A transport that notes the headers of every request it passes on, per step.
private final class SentRequests: HTTPTransport, @unchecked Sendable {
    let base: any HTTPTransport
    private let lock = NSLock()
    private var sent: [[String]] = []

    init(base: any HTTPTransport) { self.base = base }

    var recordedTime: (any WallClock)? { base.recordedTime }

    func start() {
        lock.lock()
        sent = []
        lock.unlock()
    }

    private func note(_ lines: [String]) {
        lock.withLock { sent.append(lines) }
    }

    func taken() -> [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        var lines = ["\(request.method.rawValue) \(request.url.absoluteString)"] + request.headers.fields.map { "\($0.name): \($0.value)" }
        if case .data(let body) = request.body { lines.append(String(decoding: body, as: UTF8.self)) }
        note(lines)
        return try await base.send(request, onEvent: onEvent)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
