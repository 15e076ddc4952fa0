import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// Chunk boundaries and times of streamed responses: recorded, written, read back, and replayed (the contract test
/// `EventStreamContractTests` runs the same stream over every transport).
@Suite struct StreamTimingTests {
    private let events = ["data: a\n\n", "data: bb\n\n", "data: ccc\n\n"]
    private let times: [TimeInterval] = [0, 0.2, 0.4]

    private func serve(_ server: StubServer, contentType: String = "text/event-stream") {
        let schedule = zip(events, times).map { TimedChunk(byteCount: $0.utf8.count, at: $1) }
        server.route(.get, "/stream", response: StubResponse(
            headers: ["Content-Type": contentType], body: .chunked(ChunkedBody(data: Data(events.joined().utf8), schedule: schedule))))
    }

    private func record(_ responseBody: ResponseBodyDestination, contentType: String = "text/event-stream",
                        chunkTiming: ChunkTimingCapture = .eventStreams) async throws -> Interaction.Response? {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await withStubServer { server in
            serve(server, contentType: contentType)
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport(),
                                            configuration: CassetteConfiguration(chunkTiming: chunkTiming))
            _ = try await recorder.send(HTTPRequest(url: server.url("/stream"), responseBody: responseBody))
            try recorder.finish()
            return try CassetteFile.load(directory.cassette()).interactions.first?.response
        }
    }

    private func expectRecordedTiming(_ chunks: [TimedChunk]?, _ label: String) {
        #expect(chunks?.map(\.byteCount) == events.map(\.utf8.count), "\(label): one chunk per event")
        guard let chunks, chunks.count == 3 else { return }
        // Lower bounds only, and loose ones. Times count from the response head as the recorder saw it, so a head
        // seen late (a loaded machine, a sanitizer) moves every later chunk earlier by as much: a ThreadSanitizer
        // run once recorded the 0.2 s chunk at 0.145 s. Half of each 0.2 s gap still tells recorded timing from
        // none.
        #expect(chunks[1].at >= 0.1 && chunks[2].at >= chunks[1].at + 0.1, "\(label): \(chunks)")
        #expect(chunks[0].at < chunks[1].at && chunks[1].at < chunks[2].at, "\(label): in order: \(chunks)")
    }

    @Test func anEventStreamIsRecordedWithItsChunksWhetherStreamedOrInMemory() async throws {
        expectRecordedTiming(try await record(.stream)?.chunks, "streamed")
        expectRecordedTiming(try await record(.memory)?.chunks, "in memory")
    }

    @Test func otherResponsesKeepTheirTimingOnlyWhenAskedTo() async throws {
        #expect(try await record(.stream, contentType: "application/json")?.chunks == nil)
        expectRecordedTiming(try await record(.stream, contentType: "application/json", chunkTiming: .always)?.chunks, "always")
        #expect(try await record(.stream, chunkTiming: .never)?.chunks == nil)
    }

    private func replayer(_ response: Interaction.Response, timing: ReplayTiming, in directory: TemporaryDirectory) throws -> CassetteTransport {
        let recorded = Interaction(request: .init(method: "GET", url: "http://127.0.0.1:9/stream"), outcome: .response(response),
                                   metrics: TransferMetrics(timeToFirstByte: 0.05, total: 0.45))
        try CassetteFile.save(Cassette(interactions: [recorded]), to: directory.cassette())
        return try openCassette(directory.cassette(), mode: .replay,
                                configuration: CassetteConfiguration(allowPlaybackRepeats: true, timing: timing))
    }

    private var recordedStream: Interaction.Response {
        Interaction.Response(statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: CassetteBody(Data(events.joined().utf8)),
                             chunks: zip(events, times).map { TimedChunk(byteCount: $0.utf8.count, at: $1) })
    }

    /// The chunks a replay delivers, each with its arrival in seconds after the first, and the error it ended with.
    private func replay(_ transport: CassetteTransport, timeout: TimeInterval = 5,
                        into destination: ResponseBodyDestination = .stream) async -> (chunks: [Int], arrivals: [Double], error: URLError.Code?) {
        let seen = Locked((chunks: [Int](), arrivals: ArrivalTimes()))
        let error = await urlErrorCode {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/stream")!, timeoutInterval: timeout,
                                                     responseBody: destination)) { event in
                let size: Int
                switch (destination, event) {
                case (.stream, .bodyChunk(let chunk)): size = chunk.count
                case (.memory, .downloadProgress(let progress)): size = Int(progress.completed)
                default: return
                }
                seen.withLock { state in
                    state.chunks.append(size)
                    state.arrivals.mark()
                }
            }
        }
        return seen.withLock { ($0.chunks, $0.arrivals.seconds, error) }
    }

    @Test func instantReplayKeepsTheChunkBoundaries() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seen = await replay(try replayer(recordedStream, timing: .instant, in: directory), timeout: 0.05)
        #expect(seen.chunks == events.map(\.utf8.count))
        #expect(seen.error == nil, "no waiting, so 0.2 s gaps cannot outlast a 0.05 s timeout")
    }

    /// Each chunk waits at least its scaled time (a loaded machine can only make it later, so only that is checked
    /// here; the scaling itself is checked below without a clock).
    @Test func recordedTimingWaitsForEachChunk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seen = await replay(try replayer(recordedStream, timing: .recorded(scale: 0.5), in: directory))
        #expect(seen.chunks == events.map(\.utf8.count))
        #expect(seen.arrivals.count == 3)
        if seen.arrivals.count == 3 {
            #expect(seen.arrivals[1] >= 0.09, "half of 0.2 s: \(seen.arrivals)")
            #expect(seen.arrivals[2] >= 0.19, "half of 0.4 s: \(seen.arrivals)")
        }
    }

    @Test func recordedTimesAreScaled() throws {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/stream")!)
        let half = try #require(ReplayPace(.recorded(scale: 0.5)))
        #expect(ReplayPace.Clock(half, request: request).offset(of: 0.4) == .milliseconds(200))
        let slower = try #require(ReplayPace(.recorded(scale: 2)))
        #expect(ReplayPace.Clock(slower, request: request).offset(of: 0.25) == .milliseconds(500))
        #expect(ReplayPace(.instant) == nil && ReplayPace(.recorded(scale: 0)) == nil, "instant and a zero scale do not wait")
    }

    @Test func aGapLongerThanTheReadTimeoutTimesOutAfterTheChunksBeforeIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try replayer(recordedStream, timing: .recorded(scale: 1), in: directory)
        let streamed = await replay(transport, timeout: 0.15)
        #expect(streamed.chunks == [events[0].utf8.count])
        #expect(streamed.error == .timedOut)
        let inMemory = await replay(transport, timeout: 0.15, into: .memory)
        #expect(inMemory.error == .timedOut, "an in-memory body times out the same way")
        let patient = await replay(transport, timeout: 0.3)
        #expect(patient.chunks == events.map(\.utf8.count) && patient.error == nil, "0.2 s gaps fit a 0.3 s timeout")
    }

    @Test func anInterruptedStreamEndsInItsRecordedErrorAfterItsBody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var cut = recordedStream
        cut.body = CassetteBody(Data(events[0].utf8))
        cut.chunks = [TimedChunk(byteCount: events[0].utf8.count, at: 0)]
        cut.interruption = Interaction.Failure(code: URLError.Code.networkConnectionLost.rawValue, message: "The network connection was lost.")
        let seen = await replay(try replayer(cut, timing: .instant, in: directory))
        #expect(seen.chunks == [events[0].utf8.count])
        #expect(seen.error == .networkConnectionLost)
    }

    @Test func chunksAndInterruptionsRoundTripThroughTheFile() throws {
        var response = recordedStream
        response.interruption = Interaction.Failure(code: -1001, message: "The request timed out.")
        let cassette = Cassette(interactions: [Interaction(request: .init(method: "GET", url: "http://h/s"), outcome: .response(response))])
        let text = String(decoding: CassetteCodec.encode(cassette), as: UTF8.self)
        #expect(text.contains("[10, 0.2]"), "each chunk is a [bytes, seconds] pair: \(text)")
        #expect(try CassetteCodec.decode(CassetteCodec.encode(cassette)) == cassette)
    }

    @Test func chunksThatDoNotAddUpToTheBodyAreRefusedWithTheirPlace() throws {
        var response = recordedStream
        response.chunks?[1].byteCount += 1
        let data = CassetteCodec.encode(Cassette(interactions: [Interaction(request: .init(method: "GET", url: "http://h/s"),
                                                                            outcome: .response(response))]))
        #expect {
            try CassetteCodec.decode(data, file: "c.json")
        } throws: { error in
            guard case CassetteError.invalidFormat(file: "c.json", path: "interactions[0].response.chunks", let reason) = error else { return false }
            return reason.contains("add up to 31 bytes but the body has 30")
        }
    }

    /// Found by the CLI mutation sweep (H9): sizes near Int.max overflowed the sum and trapped in `inspect`, `lint`,
    /// `convert` and `redact`. The input is also Tools/Fuzz/Regressions/cassette-json/chunk-sizes-near-int-max.json.
    @Test func chunkSizesThatOverflowTheSumAreRefusedNotTrapped() throws {
        #expect(TimedChunk.problem(in: [TimedChunk(byteCount: .max, at: 0), TimedChunk(byteCount: .max, at: 1)], total: 3)?
            .contains("add up to more than 9223372036854775807 bytes") == true)
        let regression = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Tools/Fuzz/Regressions/cassette-json/chunk-sizes-near-int-max.json")
        #expect {
            try CassetteCodec.decode(Data(contentsOf: regression), file: "c.json")
        } throws: { error in
            guard case CassetteError.invalidFormat(file: "c.json", path: "interactions[0].response.chunks", let reason) = error else { return false }
            return reason.contains("chunk 1 add up to more than")
        }
    }

    @Test func fittingMovesTheDifferenceToTheEnd() {
        let chunks = [TimedChunk(byteCount: 4, at: 0), TimedChunk(byteCount: 4, at: 1)]
        #expect(TimedChunk.fitted(chunks, to: 10) == [TimedChunk(byteCount: 4, at: 0), TimedChunk(byteCount: 6, at: 1)])
        #expect(TimedChunk.fitted(chunks, to: 3) == [TimedChunk(byteCount: 3, at: 0)])
        #expect(TimedChunk.fitted([], to: 5) == [TimedChunk(byteCount: 5, at: 0)])
        #expect(TimedChunk.problem(in: [TimedChunk(byteCount: 1, at: 1), TimedChunk(byteCount: 1, at: 0.5)], total: 2)?.contains("never go back") == true)
    }
}
