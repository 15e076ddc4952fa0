import Foundation
import Synchronization
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// What the drift check costs a recording (issue H5: at most 5%): recording in `.all` over an earlier recording of
/// the same requests, which compares every live answer with the one recorded before it (`CassetteSummary.drift`),
/// versus recording in `.all` into a new cassette, which has nothing to compare with. Both over their own
/// `CurlTransport` to one in-process `StubServer`, in alternating blocks; the earlier recording holds every request
/// of every round once, each answer with other values in the same shape, so no drift is found and each answer is
/// compared in full.
struct ReRecordVersusRecord {
    let count: Int
    let block: Int
    let rounds: Int

    /// Microseconds per request of each counted block of each side, and each side's `finish()` in microseconds per
    /// request recorded (the re-recording side compares its answers with the earlier ones there).
    func run() async throws -> (reRecording: [Double], recording: [Double], reRecordingFinish: Double, recordingFinish: Double) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-rerecord-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try StubServer(configuration: .init(journalCapacity: 16))
        defer { server.stop() }
        // Every answer differs from the one recorded before it in a value (`served`), never in shape: what
        // re-recording usually meets, and what makes the drift check read both bodies in full.
        let served = Served()
        server.route(.post, "/orders/{id}") { request in
            let number = served.next()
            return .json(Data(#"{"accepted":true,"served":\#(number),"bytes":\#(request.body.count),"items":[{"sku":"A-1","quantity":2}]}"#.utf8))
        }
        let body = Data(#"{"sku":"A-1","quantity":2,"note":"benchmark"}"#.utf8)
        func send(_ transport: CassetteTransport, _ index: Int) async throws {
            let request = HTTPRequest(method: .post, url: server.url("/orders/\(index)"), headers: ["Content-Type": "application/json"],
                                      body: .data(body))
            guard try await transport.send(request).statusCode == 200 else { throw CassetteError.closed(file: "unexpected status") }
        }
        let earlierFile = directory.appendingPathComponent("earlier.json")
        let earlier = try CassetteTransport(cassette: earlierFile, mode: .all, upstream: CurlTransport(), environment: [:])
        for _ in 0...rounds { for index in 0..<count { try await send(earlier, index) } }
        try earlier.finish()
        let reRecordedFile = directory.appendingPathComponent("re-recorded.json")
        // RERECORD_CONTROL=1 records both sides into new cassettes: an A/A run, the ratios the harness reads when the
        // two sides do the same work.
        if ProcessInfo.processInfo.environment["RERECORD_CONTROL"] == nil {
            try FileManager.default.copyItem(at: earlierFile, to: reRecordedFile)
        }
        let reRecording = try CassetteTransport(cassette: reRecordedFile, mode: .all, upstream: CurlTransport(), environment: [:])
        let recording = try CassetteTransport(cassette: directory.appendingPathComponent("new.json"), mode: .all,
                                              upstream: CurlTransport(), environment: [:])
        let result = try await AlternatingBlocks.run(
            count: count, block: block, rounds: rounds,
            measured: { range in for index in range { try await send(reRecording, index) } },
            baseline: { range in for index in range { try await send(recording, index) } })
        let requests = Double(count * (rounds + 1))
        let recordingStart = ContinuousClock.now
        _ = try recording.finish()
        let recordingFinish = ClientReplay.microseconds(ContinuousClock.now - recordingStart) / requests
        let reRecordingStart = ContinuousClock.now
        let summary = try reRecording.finish()
        let reRecordingFinish = ClientReplay.microseconds(ContinuousClock.now - reRecordingStart) / requests
        guard summary.drift.isEmpty, summary.interactionCount == count * (rounds + 1) else {
            throw CassetteError.closed(file: "re-recording found drift or lost interactions: \(summary.drift.prefix(3))")
        }
        return (result.measured, result.baseline, reRecordingFinish, recordingFinish)
    }
}

/// How many answers the benchmark's server has given.
private final class Served: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }
}
