import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// Recording through a `CassetteTransport` in `.all` versus passing through one in `.passthrough`, both over their
/// own `CurlTransport` to one in-process `StubServer`, the same POST as the `Record`/`Passthrough` benchmarks.
///
/// The two alternate in blocks (which goes first alternates too), so that the drift of a shared or virtual
/// machine, which moves a whole benchmark run by tens of percent, falls on both alike.
struct RecordVersusPassthrough {
    let interactions: Int
    let block: Int
    /// Whether each side runs on its `CurlTransport`'s event-loop executor (see `CurlTransport.executor`).
    let onLoop: Bool
    /// Whether requests pass an event handler (`send(_:onEvent:)`, as session tasks do) instead of none.
    let events: Bool
    /// How long the stub server waits before each response: zero measures recording against a loopback round trip
    /// of about 100 µs; a millisecond or more is closer to what a real upstream costs.
    let latency: Duration

    struct Result {
        /// Seconds per request of each block.
        var passthrough: [Double] = []
        var recording: [Double] = []
        /// Process CPU seconds and context switches, summed over each side's blocks.
        var passthroughUsage = Usage()
        var recordingUsage = Usage()
    }

    /// What `getrusage` counts for the whole process (the stub server's threads included).
    struct Usage {
        var cpuSeconds = 0.0
        var contextSwitches = 0

        static func now() -> Usage {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return Usage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw)
        }

        static func += (total: inout Usage, block: (start: Usage, end: Usage)) {
            total.cpuSeconds += block.end.cpuSeconds - block.start.cpuSeconds
            total.contextSwitches += block.end.contextSwitches - block.start.contextSwitches
        }
    }

    func run() async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-record-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try StubServer(configuration: .init(journalCapacity: 16))
        defer { server.stop() }
        server.route(.post, "/orders/{id}") { [latency] request in
            .json(Data(#"{"accepted":true,"bytes":\#(request.body.count)}"#.utf8)).delayed(by: latency)
        }
        let passthroughCurl = CurlTransport(), recordingCurl = CurlTransport()
        let passthrough = try CassetteTransport(cassette: directory.appendingPathComponent("passthrough.json"), mode: .passthrough,
                                                upstream: passthroughCurl, environment: [:])
        let recording = try CassetteTransport(cassette: directory.appendingPathComponent("recording.json"), mode: .all,
                                              upstream: recordingCurl, environment: [:])
        let passthroughExecutor = onLoop ? passthroughCurl.executor : nil
        let recordingExecutor = onLoop ? recordingCurl.executor : nil
        let body = Data(#"{"sku":"A-1","quantity":2,"note":"benchmark"}"#.utf8)
        var next = 0
        func time(_ transport: CassetteTransport) async throws -> Double {
            let executor = transport.mode == .passthrough ? passthroughExecutor : recordingExecutor
            return try await withTaskExecutorPreference(executor) { try await timeHere(transport) }
        }
        func timeHere(_ transport: CassetteTransport) async throws -> Double {
            let start = ContinuousClock.now
            for _ in 0..<block {
                let request = HTTPRequest(method: .post, url: server.url("/orders/\(next)"), headers: ["Content-Type": "application/json"],
                                          body: .data(body))
                next += 1
                let response = events ? try await transport.send(request, onEvent: { _ in }) : try await transport.send(request)
                guard response.statusCode == 200 else { throw CassetteError.closed(file: "unexpected status \(response.statusCode)") }
            }
            return seconds(start.duration(to: .now)) / Double(block)
        }
        // One block each to warm up connections, caches and the cassette file (its first recording writes it).
        _ = try await time(passthrough)
        _ = try await time(recording)
        var result = Result()
        func passthroughBlock() async throws {
            let start = Usage.now()
            result.passthrough.append(try await time(passthrough))
            result.passthroughUsage += (start, Usage.now())
        }
        func recordingBlock() async throws {
            let start = Usage.now()
            result.recording.append(try await time(recording))
            result.recordingUsage += (start, Usage.now())
        }
        for round in 0..<max(1, interactions / block) {
            if round % 2 == 0 {
                try await passthroughBlock()
                try await recordingBlock()
            } else {
                try await recordingBlock()
                try await passthroughBlock()
            }
        }
        let summary = try recording.finish()
        guard summary.interactionCount == block * (result.recording.count + 1) else {
            throw CassetteError.closed(file: "recorded \(summary.interactionCount) interactions")
        }
        return result
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}
