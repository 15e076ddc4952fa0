import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckSession
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// A replay judges time as the live run did: a response the cache answered live is answered from the cache again,
/// and a cookie that was alive is alive, however long after the recording the replay runs.
@Suite struct RecordedTimeTests {
    final class Counter: Sendable {
        let value = Locked(0)
    }

    /// What the client saw: each answer's status and body, and the cookie it would send after each step.
    struct Trail: Equatable {
        var answers: [String] = []
        var cookies: [String?] = []
    }

    /// Records a max-age flow and a cookie with an `Expires` date a day ahead, returns the live trail and how many
    /// requests reached the server.
    private func flow(over transport: any HTTPTransport, base: URL) async throws -> Trail {
        let cookies = CookieStore()
        let pipeline = SessionPipeline(cookies: cookies, cache: HTTPCache())
        var trail = Trail()
        for path in ["/login", "/cached", "/cached", "/me"] {
            let response = try await pipeline.send(HTTPRequest(url: base.appendingPathComponent(path)), over: transport, onEvent: nil)
            trail.answers.append("\(response.statusCode) \(String(decoding: response.data ?? Data(), as: UTF8.self))")
            trail.cookies.append(cookies.cookieHeader(for: base.appendingPathComponent("/me")))
        }
        return trail
    }

    private func server(count: Counter) throws -> StubServer {
        let server = try StubServer()
        let session = "abcdef-\(UUID().uuidString)"
        server.route(.get, "/login") { _ in
            let expires = HTTPDate.format(Date().addingTimeInterval(86_400))
            return StubResponse(status: 200, headers: ["Set-Cookie": "sid=\(session); Path=/; Expires=\(expires)"], body: .data(Data("hi".utf8)))
        }
        server.route(.get, "/cached") { _ in
            let served = count.value.withLock { value -> Int in
                value += 1
                return value
            }
            // Fresh for an hour: live, the second /cached must come from the cache even when a starved task pool
            // (two cores, a sanitizer) holds the flow for over a minute between the two (seen under TSan in CI).
            return StubResponse(status: 200, headers: ["Cache-Control": "max-age=3600", "Date": HTTPDate.format(Date())],
                                body: .data(Data("served \(served)".utf8)))
        }
        server.route(.get, "/me") { request in
            request.headers["Cookie"] == "sid=\(session)" ? .text("ada") : StubResponse(status: 401)
        }
        return server
    }

    @Test(arguments: [ReplayTime.recorded, .now])
    func aReplayAYearLaterSeesWhatTheLiveRunSaw(time: ReplayTime) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = Counter()
        let server = try server(count: count)
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        let live = try await flow(over: recorder, base: server.url("/"))
        try recorder.finish()
        server.stop()
        #expect(count.value.withLock { $0 } == 1, "live, the second /cached came from the cache")
        #expect(live.answers == ["200 hi", "200 served 1", "200 served 1", "200 ada"])

        try DeterminismTests.age(directory.cassette(), by: 366 * 86_400, into: directory.cassette())
        var configuration = CassetteConfiguration()
        configuration.replayTime = time
        let player = try openCassette(directory.cassette(), mode: .replay, configuration: configuration)
        #expect((player.recordedTime != nil) == (time == .recorded))
        // What `.cassette` does for a test: the test body runs on the recording's clock.
        let replayed = try await RecordedTime.run(over: player) { try await flow(over: player, base: server.url("/")) }
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
        #expect(replayed.answers == live.answers)
        // The client holds the same cookie at every step: its stand-in.
        let salt = try #require(CassetteFile.load(directory.cassette()).redactionSalt)
        let expected = live.cookies.map { header in
            header.map { "sid=" + StandIn.make(for: $0.dropFirst("sid=".count), salt: salt) }
        }
        #expect(replayed.cookies == expected)
    }

    /// A wrapper of the kind users write for logs: it forwards `send` and nothing else, not `recordedTime`.
    struct LoggingTransport: HTTPTransport {
        let base: any HTTPTransport
        let log = Locked<[String]>([])

        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            log.withLock { $0.append(request.url.path) }
            return try await base.send(request, onEvent: onEvent)
        }
    }

    @Test func aWrapperThatDoesNotForwardTheClockKeepsTheRecordingsTime() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = Counter()
        let server = try server(count: count)
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        let live = try await flow(over: recorder, base: server.url("/"))
        try recorder.finish()
        server.stop()

        try DeterminismTests.age(directory.cassette(), by: 366 * 86_400, into: directory.cassette())
        let player = try openCassette(directory.cassette(), mode: .replay)
        let logging = LoggingTransport(base: player)
        #expect(logging.recordedTime == nil)
        // No RecordedTime.run here: the session's SystemWallClocks read a year after the recording until the
        // cassette under the wrapper announces its clock.
        let replayed = try await flow(over: logging, base: server.url("/"))
        #expect(replayed.answers == live.answers)
        #expect(logging.log.withLock { $0 } == ["/login", "/cached", "/me"], "the second /cached came from the cache")
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    @Test func withoutTheRecordingsClockTheYearShows() async throws {
        // The control: the same aged cassette replayed by a session whose clock is given explicitly (so it is not
        // replaced) at today's date goes to the cassette for the second /cached and finds nothing there.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = Counter()
        let server = try server(count: count)
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        _ = try await flow(over: recorder, base: server.url("/"))
        try recorder.finish()
        server.stop()
        try DeterminismTests.age(directory.cassette(), by: 366 * 86_400, into: directory.cassette())
        let player = try openCassette(directory.cassette(), mode: .replay)
        let today = ManualWallClock(start: Date())
        let pipeline = SessionPipeline(cookies: CookieStore(clock: today), cache: HTTPCache(clock: today))
        for path in ["/login", "/cached"] { _ = try await pipeline.send(HTTPRequest(url: server.url(path)), over: player, onEvent: nil) }
        await #expect(throws: CassetteError.self) {
            _ = try await pipeline.send(HTTPRequest(url: server.url("/cached")), over: player, onEvent: nil)
        }
    }

    @Test func datesMoveByTheOffsetAndNothingElseChanges() {
        let response = Interaction.Response(statusCode: 200, headers: [
            "Date": "Tue, 24 Nov 2026 10:00:00 GMT", "Set-Cookie": "a=b; Path=/; Expires=Wed, 25 Nov 2026 10:00:00 GMT; HttpOnly",
            "Retry-After": "120", "ETag": "\"x\"", "Last-Modified": "Mon, 23 Nov 2026 10:00:00 GMT",
        ])
        let moved = RecordedDateShift.shifted(response, by: 3_600)
        #expect(moved.headers["Date"] == "Tue, 24 Nov 2026 11:00:00 GMT")
        #expect(moved.headers["Last-Modified"] == "Mon, 23 Nov 2026 11:00:00 GMT")
        #expect(moved.headers["Set-Cookie"] == "a=b; Path=/; Expires=Wed, 25 Nov 2026 11:00:00 GMT; HttpOnly")
        #expect(moved.headers["Retry-After"] == "120")
        #expect(moved.headers["ETag"] == "\"x\"")
    }
}
