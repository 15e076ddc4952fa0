import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// A served cassette's dates, as recorded or moved to now (`replayTime`), for clients whose clock is their own.
    @Suite struct ServedReplayTimeTests {
        @Test(arguments: ReplayTime.allCases)
        func datesAreServedAsRecordedOrMovedToNow(time: ReplayTime) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let recordedAt = Date(timeIntervalSince1970: 1_735_732_800)  // 2025-01-01T12:00:00Z
            let interaction = Interaction(
                request: .init(method: "GET", url: "http://127.0.0.1:1/dated"),
                outcome: .response(.init(statusCode: 200, headers: [
                    "Date": HTTPDate.format(recordedAt), "Last-Modified": HTTPDate.format(recordedAt.addingTimeInterval(-3_600)),
                    "Set-Cookie": "sid=abc; Path=/; Expires=\(HTTPDate.format(recordedAt.addingTimeInterval(86_400)))",
                    "Cache-Control": "max-age=60",
                ], body: CassetteBody(Data("dated".utf8)))),
                recordedAt: recordedAt)
            try CassetteFile.save(Cassette(interactions: [interaction]), to: directory.cassette())
            let server = try StubServer()
            defer { server.stop() }
            var configuration = CassetteConfiguration()
            configuration.replayTime = time
            try server.serve(cassette: directory.cassette(), configuration: configuration)
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/dated")))
            let date = try #require(response.headers["Date"].flatMap(HTTPDate.parse))
            let lastModified = try #require(response.headers["Last-Modified"].flatMap(HTTPDate.parse))
            let cookie = try #require(response.headers["Set-Cookie"])
            let offset = time == .now ? Date().timeIntervalSince(recordedAt) : 0
            #expect(abs(date.timeIntervalSince(recordedAt) - offset) < 10, "\(time): Date \(date)")
            #expect(abs(date.timeIntervalSince(lastModified) - 3_600) < 1, "the hour between them stays")
            #expect(cookie.hasPrefix("sid=abc; Path=/; Expires="))
            let expires = try #require(HTTPDate.parse(String(cookie.dropFirst("sid=abc; Path=/; Expires=".count))))
            #expect(abs(expires.timeIntervalSince(date) - 86_400) < 1, "the cookie still lives a day after its Date")
            #expect(response.headers["Cache-Control"] == "max-age=60")
        }
    }
}
