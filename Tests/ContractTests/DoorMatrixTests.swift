import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckOpenAPI
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession
import TapedeckCore

/// One cassette, every door: each session flow is recorded live through one door (the client stack, URLSession, an
/// OpenAPI client transport) and replayed through every door with the server stopped. Every replay must give what
/// the live run gave, and the cassette must hold one interaction per hop whichever door recorded it.
@Suite struct DoorMatrixTests {
    static let pairs: [(Door, Door)] = Door.allCases.flatMap { recorder in Door.allCases.map { (recorder, $0) } }

    @Test(arguments: SessionFlow.all)
    func aFlowRecordedThroughAnyDoorReplaysThroughEveryDoor(_ flow: SessionFlow) async throws {
        for recorder in flow.doors {
            try await withTemporaryDirectory { directory in
                let server = try flow.server()
                let cassette = directory.cassette("\(recorder).json")
                // Unredacted: default redaction replaces a cookie's value, which the next hop's answer echoes.
                let recording = try openCassette(cassette, mode: .all, upstream: server.transport(),
                                                 configuration: CassetteConfiguration(redaction: .disabled))
                let live = try await recorder.run(flow, over: recording, server: server.url("/"))
                try recording.finish()
                server.stop()
                #expect(live.status == flow.expectedStatus, "\(flow.name) live through \(recorder)")
                #expect(flow.check(live.body), "\(flow.name) live through \(recorder): \(String(decoding: live.body, as: UTF8.self))")
                let recorded = try CassetteFile.load(cassette)
                #expect(recorded.interactions.count == flow.hops, "\(flow.name) through \(recorder) recorded \(recorded.interactions.map(\.request.url))")

                for player in flow.doors {
                    let replaying = try openCassette(cassette, mode: .replay)
                    let replayed = try await player.run(flow, over: replaying, server: server.url("/"))
                    #expect(replayed.status == live.status, "\(flow.name): recorded through \(recorder), replayed through \(player)")
                    #expect(replayed.body == live.body, "\(flow.name): recorded through \(recorder), replayed through \(player)")
                    if let liveURL = live.url, let replayedURL = replayed.url {
                        #expect(replayedURL == liveURL, "\(flow.name): recorded through \(recorder), replayed through \(player)")
                    }
                    let summary = try replaying.finish()
                    #expect(summary.unplayed.isEmpty, "\(flow.name): \(player) left \(summary.unplayed.count) hops of \(recorder)'s recording unplayed")
                }
            }
        }
    }

    @Test(arguments: Door.allCases)
    func aRedirectLoopEndsWithTooManyRedirectsOnEveryDoor(_ door: Door) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/loop", response: StubResponse(status: 302, headers: ["Location": "/loop"]))
        let error = await #expect(throws: URLError.self) {
            _ = try await door.run(SessionFlow(name: "loop", path: "/loop"), over: server.transport(), server: server.url("/"))
        }
        #expect(error?.code == .httpTooManyRedirects)
        #expect(server.journal.entries.count == door.redirectLimit + 1)
    }

    @Test(arguments: Door.allCases)
    func aLocationThatIsNotAURLFailsNamingIt(_ door: Door) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/bad", response: StubResponse(status: 302, headers: ["Location": "http://[not a url"]))
        let error = await #expect(throws: URLError.self) {
            _ = try await door.run(SessionFlow(name: "bad", path: "/bad"), over: server.transport(), server: server.url("/"))
        }
        #expect(error?.code == .redirectToNonExistentLocation)
        #expect(error?.localizedDescription.contains("http://[not a url") == true)
    }

    @Test func theHopsBeforeAFailureAreInTheCassette() async throws {
        try await withTemporaryDirectory { directory in
            let server = try StubServer()
            server.route(.get, "/first", response: StubResponse(status: 302, headers: ["Location": "/second"]))
            server.route(.get, "/second", response: StubResponse(status: 307, headers: ["Location": "http://127.0.0.1:1/gone"]))
            let cassette = directory.cassette("partial.json")
            let recording = try openCassette(cassette, mode: .all, upstream: server.transport())
            await #expect(throws: URLError.self) {
                _ = try await SessionTransport(recording).send(HTTPRequest(url: server.url("/first")))
            }
            try recording.finish()
            server.stop()
            let recorded = try CassetteFile.load(cassette)
            #expect(recorded.interactions.prefix(2).map { URL(string: $0.request.url)?.path } == ["/first", "/second"])
        }
    }
}

/// What a client saw at the end of a flow.
struct DoorOutcome: Sendable {
    var status: Int
    /// The final URL, where the door tells it (an OpenAPI response carries none).
    var url: URL?
    var body: Data
}

/// A session flow: one request whose answer takes the session's behaviours (redirect hops, cookies, challenges).
struct SessionFlow: Sendable, CustomTestStringConvertible {
    var name: String
    var method: HTTPMethod = .get
    var path: String
    var body: Data?
    var expectedStatus = 200
    /// Requests the flow takes on the wire.
    var hops = 1
    var credential: Credential?
    /// How often the same client sends the request (the outcome is the last answer's).
    var repeats = 1
    /// Whether the client keeps an HTTP cache.
    var cached = false
    /// Whether the client retries a 503 (doors without an interceptor, URLSession's, are left out).
    var retries = false
    var check: @Sendable (Data) -> Bool = { _ in true }

    /// The doors that can run the flow: URLSession has no retry policy.
    var doors: [Door] { retries ? [.sessionManager, .openAPI] : Door.allCases }

    var testDescription: String { name }

    /// An httpbin stub server with a redirect route for each followed status, and `/flaky`, which answers its first
    /// request with a `503` and `Retry-After: 0` and every later one with a 200.
    func server() throws -> StubServer {
        let server = try StubServer.httpbin()
        for status in Redirection.followedStatuses {
            server.route(nil, "/redirect-with/\(status)", response: StubResponse(status: status, headers: ["Location": "/anything/after"]))
        }
        let served = Locked(0)
        server.route(.get, "/flaky") { _ in
            served.withLock { count -> Int in count += 1; return count } == 1
                ? StubResponse(status: 503, headers: ["Retry-After": "0"])
                : .json(["recovered": true])
        }
        return server
    }

    static let all: [SessionFlow] = [
        SessionFlow(name: "cookie set across a redirect", path: "/cookies/set?flavour=oatmeal", hops: 2,
                    check: { member($0, "cookies") as? [String: String] == ["flavour": "oatmeal"] }),
        SessionFlow(name: "two redirects", path: "/redirect/2", hops: 3, check: { (member($0, "url") as? String)?.hasSuffix("/get") == true }),
        SessionFlow(name: "POST through 301 becomes GET", method: .post, path: "/redirect-with/301", body: Data("hello".utf8), hops: 2,
                    check: { echoed($0) == ["GET", ""] }),
        SessionFlow(name: "POST through 302 becomes GET", method: .post, path: "/redirect-with/302", body: Data("hello".utf8), hops: 2,
                    check: { echoed($0) == ["GET", ""] }),
        SessionFlow(name: "POST through 303 becomes GET", method: .post, path: "/redirect-with/303", body: Data("hello".utf8), hops: 2,
                    check: { echoed($0) == ["GET", ""] }),
        SessionFlow(name: "POST through 307 keeps its body", method: .post, path: "/redirect-with/307", body: Data("hello".utf8), hops: 2,
                    check: { echoed($0) == ["POST", "hello"] }),
        SessionFlow(name: "POST through 308 keeps its body", method: .post, path: "/redirect-with/308", body: Data("hello".utf8), hops: 2,
                    check: { echoed($0) == ["POST", "hello"] }),
        SessionFlow(name: "Basic challenge", path: "/basic-auth/ada/lovelace", hops: 2,
                    credential: Credential(user: "ada", password: "lovelace"), check: { member($0, "authenticated") as? Bool == true }),
        SessionFlow(name: "Digest challenge", path: "/digest-auth/auth/ada/lovelace", hops: 2,
                    credential: Credential(user: "ada", password: "lovelace"), check: { member($0, "authenticated") as? Bool == true }),
        SessionFlow(name: "ETag revalidation", path: "/etag/v1", hops: 2, repeats: 2, cached: true,
                    check: { member($0, "url") != nil }),
        SessionFlow(name: "a 503 retried", path: "/flaky", hops: 2, retries: true,
                    check: { member($0, "recovered") as? Bool == true }),
    ]

    /// A member of an httpbin JSON answer.
    private static func member(_ data: Data, _ name: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?[name]
    }

    /// The method and body an httpbin `/anything` echo saw.
    private static func echoed(_ data: Data) -> [String] {
        [member(data, "method") as? String ?? "?", member(data, "data") as? String ?? "?"]
    }
}

/// The in-process doors to HTTP.
enum Door: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sessionManager
    case urlSession
    case openAPI

    var testDescription: String { rawValue }

    /// Redirects followed before `httpTooManyRedirects`.
    var redirectLimit: Int { self == .urlSession ? TransportURLProtocol.maximumRedirects : 16 }

    func run(_ flow: SessionFlow, over transport: any HTTPTransport, server root: URL) async throws -> DoorOutcome {
        let url = URL(string: flow.path, relativeTo: root)!.absoluteURL
        switch self {
        case .sessionManager:
            let manager = SessionManager(transport: transport, responseSerializer: HTTPResponseSerializer())
            if let credential = flow.credential { manager.authenticationChallengeHandler = { _ in .useCredential(credential) } }
            if flow.cached { manager.cache = HTTPCache(memoryCapacity: 1 << 20) }
            if flow.retries { manager.interceptor = RetryPolicy(retryLimit: 2) }
            var request = HTTPRequest(method: flow.method, url: url)
            if let body = flow.body { request.body = .data(body) }
            var outcome: DoorOutcome?
            for _ in 0..<flow.repeats {
                let result = await manager.dataTask(with: request).run()
                if let error = result.error { throw error }
                outcome = DoorOutcome(status: result.response?.statusCode ?? 0, url: result.response?.url, body: result.data ?? Data())
            }
            return outcome!
        case .urlSession:
            let delegate = ChallengeAnswerer(credential: flow.credential)
            let cache = flow.cached ? HTTPCache(memoryCapacity: 1 << 20) : nil
            let session = URLSession(configuration: .tapedeck(transport: transport, cache: cache), delegate: delegate, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            var request = URLRequest(url: url)
            request.httpMethod = flow.method.rawValue
            request.httpBody = flow.body
            var outcome: DoorOutcome?
            for _ in 0..<flow.repeats {
                let (data, response) = try await session.data(for: request)
                let http = response as? HTTPURLResponse
                outcome = DoorOutcome(status: http?.statusCode ?? 0, url: http?.url, body: data)
            }
            return outcome!
        case .openAPI:
            var session = SessionPipeline()
            if let credential = flow.credential { session.challengeHandler = { _ in .useCredential(credential) } }
            if flow.cached { session.cache = HTTPCache(memoryCapacity: 1 << 20) }
            if flow.retries { session.interceptor = RetryPolicy(retryLimit: 2) }
            let client = TapedeckClientTransport(transport, session: session)
            let method = HTTPTypes.HTTPRequest.Method(flow.method.rawValue)!
            let request = HTTPTypes.HTTPRequest(method: method, scheme: nil, authority: nil, path: flow.path)
            var outcome: DoorOutcome?
            for _ in 0..<flow.repeats {
                let (response, body) = try await client.send(request, body: flow.body.map { HTTPBody($0) }, baseURL: root, operationID: flow.name)
                var data = Data()
                if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
                outcome = DoorOutcome(status: response.status.code, url: nil, body: data)
            }
            return outcome!
        }
    }
}

/// A URLSession delegate that answers every challenge with one credential (or default handling without one).
private final class ChallengeAnswerer: NSObject, URLSessionTaskDelegate, Sendable {
    let credential: Credential?

    init(credential: Credential?) { self.credential = credential }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let credential else { return completionHandler(.performDefaultHandling, nil) }
        completionHandler(.useCredential, URLCredential(user: credential.user, password: credential.password, persistence: .none))
    }
}
