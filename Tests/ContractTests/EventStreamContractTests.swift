import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// A server-sent event stream over every transport: the client must see the same events in the same order, and a
/// read timeout shorter than the stream's pause must fire after the same events, live, while recording, replayed in
/// process with recorded timing, and served from the cassette with recorded timing.
@Suite struct EventStreamContractTests {
    /// Four events: three 100 ms apart, then a one-second pause before the last; the short read timeout is 600 ms,
    /// so a loaded machine has half a second of slack either way.
    static let events = ["1", "2", "3", "4"]
    static let times: [TimeInterval] = [0, 0.1, 0.2, 1.2]
    static let shortTimeout: TimeInterval = 0.6

    /// What a client of the stream saw: the events' data in order, when each arrived (seconds after the request was
    /// sent), and how the stream ended (`nil`: completely).
    struct Observed: Sendable {
        var events: [String]
        var arrivals: [TimeInterval]
        var ended: URLError.Code?
    }

    static func startServer() throws -> StubServer {
        let server = try StubServer()
        let body = Data(events.map { "data: \($0)\n\n" }.joined().utf8)
        let sizes = events.map { "data: \($0)\n\n".utf8.count }
        let schedule = zip(sizes, times).map { TimedChunk(byteCount: $0, at: $1) }
        server.route(.get, "/events", response: StubResponse(
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
            body: .chunked(ChunkedBody(data: body, schedule: schedule))))
        return server
    }

    /// Reads the stream at `url` through `transport`, with `timeout` as the read (idle) timeout.
    static func observe(_ url: URL, over transport: any HTTPTransport, timeout: TimeInterval) async -> Observed {
        let parser = Locked((buffer: "", events: [String](), arrivals: ArrivalTimes(from: .now)))
        let request = HTTPRequest(url: url, headers: ["Accept": "text/event-stream"], timeoutInterval: timeout, responseBody: .stream)
        let code = await urlErrorCode {
            _ = try await transport.send(request) { event in
                guard case .bodyChunk(let chunk) = event else { return }
                parser.withLock { state in
                    state.buffer += String(decoding: chunk, as: UTF8.self)
                    while let end = state.buffer.range(of: "\n\n") {
                        let block = state.buffer[..<end.lowerBound]
                        state.buffer.removeSubrange(..<end.upperBound)
                        let data = block.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }.joined(separator: "\n")
                        state.events.append(data)
                        state.arrivals.mark()
                    }
                }
            }
        }
        return parser.withLock { Observed(events: $0.events, arrivals: $0.arrivals.seconds, ended: code) }
    }

    /// Checks the events, their pacing (none earlier than most of its recorded time after the request was sent: every
    /// transport paces from the response head, which comes after the request, so a loaded machine can only make them
    /// later; measured from the first event instead, a late first event made the next look early) and the ending.
    static func check(_ observed: Observed, events expectedEvents: [String], ended: URLError.Code?, paced: Bool, _ label: String) {
        #expect(observed.events == expectedEvents, "\(label): events")
        #expect(observed.ended == ended, "\(label): ending")
        guard paced, observed.arrivals.count == expectedEvents.count else { return }
        for index in 1..<observed.arrivals.count {
            #expect(observed.arrivals[index] >= times[index] * 0.8,
                    "\(label): event \(index) came \(observed.arrivals[index]) s after the request; recorded \(times[index]) s")
        }
    }

    @Test func theSameEventsAndTheSameTimeoutOverEveryTransport() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.startServer()
        defer { server.stop() }
        let url = server.url("/events")
        let whole = directory.cassette("whole.json")
        let cut = directory.cassette("cut.json")

        // Live: the whole stream with a generous timeout; cut after three events by a 600 ms read timeout.
        Self.check(await Self.observe(url, over: server.transport(), timeout: 5), events: Self.events, ended: nil, paced: true, "live")
        Self.check(await Self.observe(url, over: server.transport(), timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut,
                   paced: true, "live, 600 ms timeout")

        // Recording both.
        let recorder = try openCassette(whole, mode: .all, upstream: server.transport())
        Self.check(await Self.observe(url, over: recorder, timeout: 5), events: Self.events, ended: nil, paced: true, "recording")
        try recorder.finish()
        let cutRecorder = try openCassette(cut, mode: .all, upstream: server.transport())
        Self.check(await Self.observe(url, over: cutRecorder, timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut, paced: true,
                   "recording, 600 ms timeout")
        try cutRecorder.finish()
        server.stop()

        let recorded = try CassetteFile.load(whole).interactions[0].response
        #expect(recorded?.chunks?.map(\.byteCount) == Self.events.map { "data: \($0)\n\n".utf8.count }, "one chunk per event")
        let cutResponse = try CassetteFile.load(cut).interactions[0].response
        #expect(cutResponse?.interruption?.code == URLError.Code.timedOut.rawValue, "the cut stream is recorded with its timeout")
        #expect(cutResponse?.chunks?.count == 3)

        let timed = CassetteConfiguration(allowPlaybackRepeats: true, timing: .recorded(scale: 1))
        let instant = CassetteConfiguration(allowPlaybackRepeats: true)

        // Replayed in process.
        let player = try openCassette(whole, mode: .replay, configuration: timed)
        Self.check(await Self.observe(url, over: player, timeout: 5), events: Self.events, ended: nil, paced: true, "replay")
        Self.check(await Self.observe(url, over: player, timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut, paced: true,
                   "replay, 600 ms timeout")
        let instantPlayer = try openCassette(whole, mode: .replay, configuration: instant)
        // Instant replay does not wait, so the pause cannot outlast even the short timeout.
        Self.check(await Self.observe(url, over: instantPlayer, timeout: Self.shortTimeout), events: Self.events, ended: nil,
                   paced: false, "instant replay")
        let cutPlayer = try openCassette(cut, mode: .replay, configuration: timed)
        Self.check(await Self.observe(url, over: cutPlayer, timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut, paced: true,
                   "replay of the cut recording")

        // Served from the cassette over sockets.
        let serving = try StubServer()
        defer { serving.stop() }
        try serving.serve(cassette: whole, configuration: timed, origin: url)
        let servedURL = serving.url("/events")
        Self.check(await Self.observe(servedURL, over: serving.transport(), timeout: 5), events: Self.events, ended: nil, paced: true,
                   "served")
        Self.check(await Self.observe(servedURL, over: serving.transport(), timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut,
                   paced: true, "served, 600 ms timeout")
        _ = try serving.finishCassette()
        try serving.serve(cassette: cut, configuration: timed, origin: url)
        Self.check(await Self.observe(servedURL, over: serving.transport(), timeout: Self.shortTimeout), events: ["1", "2", "3"], ended: .timedOut,
                   paced: true, "served cut recording")
    }
}
