import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Re-recording a cassette compares each live answer with the one recorded before it for the same request, and the
/// summary lists what drifted by `tapedeck verify`'s rules: status, media type, JSON shape; never changed values,
/// never a live transport error.
@Suite struct DriftTests {
    /// Records `/user`, `/orders?page=1` (twice) and `/flaky` from `server` into `cassette` with `mode`.
    static func record(_ cassette: URL, from server: StubServer, mode: RecordMode) async throws -> CassetteSummary {
        let recorder = try openCassette(cassette, mode: mode, upstream: CurlTransport())
        for path in ["/user", "/orders?page=1", "/orders?page=1", "/flaky"] {
            _ = try? await recorder.send(HTTPRequest(url: server.url(path)))
        }
        return try recorder.finish()
    }

    @Test func aChangedStatusTypeOrShapeIsDriftAndChangedValuesAreNot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("drift.json")
        try await withStubServer { before in
            before.route(.get, "/user", response: .json(["id": 7, "name": "Ada", "tags": ["a"]]))
            before.route(.get, "/orders", response: .json(["orders": [["id": 1]]]))
            before.route(.get, "/flaky", response: .json(["ok": true]))
            let first = try await Self.record(cassette, from: before, mode: .all)
            #expect(first.drift.isEmpty, "a first recording has nothing to drift from: \(first.drift)")
        }
        try await withStubServer { after in
            // Values change (a new name, more tags, more orders): not drift. The id's type and a missing member are.
            after.route(.get, "/user", response: .json(["id": "7", "tags": ["a", "b"]]))
            after.route(.get, "/orders", response: .json(["orders": [["id": 2], ["id": 3]]]))
            after.add(Stub(RequestPattern(.get, "/flaky"), fault: .reset))
            let second = try await Self.record(cassette, from: after, mode: .all)
            #expect(second.drift.count == 1, "\(second.drift)")
            let line = second.drift.first ?? ""
            #expect(line.hasPrefix("#0 GET http://127.0.0.1:"), "\(line)")
            #expect(line.contains("shape: $.id: expected number, got string"), "\(line)")
            #expect(line.contains("$.name: missing"), "\(line)")
        }
        try await withStubServer { later in
            later.route(.get, "/user", response: .text("gone", status: 404))
            later.route(.get, "/orders", response: .json(["orders": []]))
            later.route(.get, "/flaky", response: .json(["ok": true]))
            let third = try await Self.record(cassette, from: later, mode: .all)
            let lines = third.drift.joined(separator: "\n")
            #expect(third.drift.count == 2, "\(lines)")
            #expect(lines.contains("status: expected 200, got 404"), "\(lines)")
            #expect(lines.contains("content-type: expected application/json, got text/plain"), "\(lines)")
            // The recorded reset was a transport error; a real answer now is a changed outcome.
            #expect(lines.contains("/flaky: outcome: recorded a transport error (-1005 networkConnectionLost), got status 200"), "\(lines)")
        }
    }

    @Test func newEpisodesReplayWhatTheyHaveAndDoNotReportDrift() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("episodes.json")
        try await withStubServer { server in
            server.route(.get, "/user", response: .json(["id": 7]))
            server.route(.get, "/orders", response: .json(["orders": []]))
            server.route(.get, "/flaky", response: .json(["ok": true]))
            _ = try await Self.record(cassette, from: server, mode: .all)
            let again = try await Self.record(cassette, from: server, mode: .newEpisodes)
            #expect(again.drift.isEmpty)
        }
    }

    /// Spy mode replays what the cassette has and sends the rest live: a live answer to a request the cassette
    /// answered before (here, a second call to `/user` with repeats off) is compared with that recorded answer.
    @Test func spyModeComparesALiveAnswerWithTheRecordedOneForTheSameRequest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("spy.json")
        try await withStubServer { server in
            server.route(.get, "/user", response: .json(["id": 7, "name": "Ada"]))
            server.route(.get, "/orders", response: .json(["orders": [["id": 1]]]))
            server.route(.get, "/flaky", response: .json(["ok": true]))
            _ = try await Self.record(cassette, from: server, mode: .all)
            // The provider changes: the same URLs answer differently.
            server.reset()
            server.route(.get, "/user", response: .json(["id": "7", "name": "Ada"]))
            server.route(.get, "/orders", response: .json(["orders": [["id": 9]]]))
            server.route(.get, "/new", response: .json(["fresh": true]))
            server.add(Stub(RequestPattern(.get, "/flaky"), fault: .reset))
            let spy = try openCassette(cassette, mode: .spy, upstream: CurlTransport())
            // Replayed from the cassette: the recorded answer, no comparison.
            let replayed = try await spy.send(HTTPRequest(url: server.url("/user")))
            let recordedUser = try JSONSerialization.jsonObject(with: replayed.data ?? Data()) as? [String: Any]
            #expect(recordedUser?["id"] as? Int == 7)
            // Live, each compared with the recorded answer for the same request.
            _ = try await spy.send(HTTPRequest(url: server.url("/user")))               // id turned into a string: drift
            _ = try await spy.send(HTTPRequest(url: server.url("/orders?page=1")))      // replayed
            _ = try await spy.send(HTTPRequest(url: server.url("/orders?page=1")))      // replayed
            _ = try await spy.send(HTTPRequest(url: server.url("/orders?page=1")))      // live, a changed id only: no drift
            _ = try await spy.send(HTTPRequest(url: server.url("/new")))                // live, nothing recorded to compare with
            _ = try await spy.send(HTTPRequest(url: server.url("/flaky")))              // replayed (recorded 200)
            await #expect(throws: URLError.self) { try await spy.send(HTTPRequest(url: server.url("/flaky"))) }  // live reset: could not check
            let summary = try spy.finish()
            #expect(summary.drift.count == 1, "\(summary.drift)")
            let line = summary.drift.first ?? ""
            #expect(line.hasPrefix("#0 GET http://127.0.0.1:") && line.contains("/user: shape: $.id: expected number, got string"), "\(line)")
            #expect(summary.liveRequests.count == 4, "\(summary.liveRequests)")
        }
    }
}
