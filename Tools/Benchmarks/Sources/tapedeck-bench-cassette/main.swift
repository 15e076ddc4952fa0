import CassetteBenchSupport
import Foundation
import TapedeckCassette
import TapedeckCore

/// Helper for Tools/bench/compare-vcrpy.sh and compare-recording.sh.
///
///     tapedeck-bench-cassette generate N FILE      write a synthetic cassette of N interactions
///     tapedeck-bench-cassette load FILE RUNS       best time to load it (seconds)
///     tapedeck-bench-cassette save FILE RUNS       best time to save it (seconds; written beside FILE)
///     tapedeck-bench-cassette replay FILE M        per-request time of M first plays through CassetteTransport
///     tapedeck-bench-cassette client-replay N BLOCK  N realistic interactions replayed through HTTPSessionManager.get
///     tapedeck-bench-cassette defaults N BLOCK       the same as created (cookies on, no cache) against no cookies
///     tapedeck-bench-cassette features N BLOCK       the same with cookies and an empty cache against with neither
///     tapedeck-bench-cassette cache-hits N BLOCK     the same answered by a warm HTTP cache against replayed
///     tapedeck-bench-cassette urlsession N BLOCK     the same through plain URLSession against HTTPSessionManager
///                                                  and through CassetteTransport.send alone, alternating blocks
///     tapedeck-bench-cassette large-put PAIRS -    a 4 MiB in-memory PUT live, recorded and replayed, PAIRS times
///     tapedeck-bench-cassette prune N RUNS         seconds to finish a newEpisodes run that prunes half of N
///     tapedeck-bench-cassette record N BLOCK       N recordings versus N passthrough requests, alternating blocks
let arguments = CommandLine.arguments
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: tapedeck-bench-cassette generate N FILE | load FILE RUNS | save FILE RUNS | replay FILE M | record N BLOCK | client-replay N BLOCK | defaults N BLOCK | features N BLOCK | cache-hits N BLOCK | urlsession N BLOCK | large-put PAIRS - | prune N RUNS\n".utf8))
    exit(2)
}
guard arguments.count == 4 else { usage() }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func best(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<max(1, runs) {
        let start = ContinuousClock.now
        try body()
        best = min(best, seconds(start.duration(to: .now)))
    }
    return best
}

do {
    switch arguments[1] {
    case "generate":
        guard let count = Int(arguments[2]) else { usage() }
        try CassetteFile.save(SyntheticCassette.make(count: count), to: URL(fileURLWithPath: arguments[3]))
    case "load":
        let url = URL(fileURLWithPath: arguments[2])
        var count = 0
        let time = try best(Int(arguments[3]) ?? 5) { count = try CassetteFile.load(url).interactions.count }
        print("load \(count) \(time)")
    case "save":
        let url = URL(fileURLWithPath: arguments[2])
        let cassette = try CassetteFile.load(url)
        let out = url.deletingPathExtension().appendingPathExtension("saved.json")
        let time = try best(Int(arguments[3]) ?? 5) { try CassetteFile.save(cassette, to: out) }
        print("save \(cassette.interactions.count) \(time)")
    case "replay":
        let url = URL(fileURLWithPath: arguments[2])
        guard let requests = Int(arguments[3]) else { usage() }
        let count = try CassetteFile.load(url).interactions.count
        let transport = try CassetteTransport(cassette: url, mode: .replay, environment: [:])
        let stride = max(1, count / requests)
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Double, any Error> = .success(0)
        // Detached: top-level code runs on the main actor, whose thread waits on the semaphore.
        Task.detached {
            do {
                let start = ContinuousClock.now
                for slot in 0..<min(requests, count) {
                    let request = HTTPRequest(url: URL(string: SyntheticCassette.url(slot * stride))!,
                                              headers: ["Accept": "application/json", "User-Agent": "tapedeck-bench/1"])
                    let response = try await transport.send(request)
                    guard response.statusCode == 200 else { throw CassetteError.closed(file: "unexpected status") }
                }
                result = .success(seconds(start.duration(to: .now)) / Double(min(requests, count)))
            } catch {
                result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        print("replay \(count) \(try result.get())")
    case "record":
        guard let count = Int(arguments[2]), let block = Int(arguments[3]), count > 0, block > 0 else { usage() }
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<RecordVersusPassthrough.Result, any Error> = .failure(CassetteError.closed(file: "not run"))
        Task.detached {
            do { outcome = .success(try await RecordVersusPassthrough(
                interactions: count, block: block, onLoop: ProcessInfo.processInfo.environment["ON_LOOP"] == "1",
                events: ProcessInfo.processInfo.environment["EVENTS"] == "1",
                latency: .microseconds(Int(ProcessInfo.processInfo.environment["LATENCY_US"] ?? "") ?? 0)).run())
            } catch { outcome = .failure(error) }
            semaphore.signal()
        }
        semaphore.wait()
        let result = try outcome.get()
        // Per block: requests per second. Whole run: requests over the summed time of each side's blocks.
        let passthrough = Double(result.passthrough.count) / result.passthrough.reduce(0, +)
        let recording = Double(result.recording.count) / result.recording.reduce(0, +)
        print("blocks \(result.recording.count) of \(block)")
        print("passthrough median-block-us \(median(result.passthrough) * 1e6) throughput \(passthrough)")
        print("recording median-block-us \(median(result.recording) * 1e6) throughput \(recording)")
        let requests = Double(result.recording.count * block)
        print("passthrough cpu-us-per-request \(result.passthroughUsage.cpuSeconds / requests * 1e6) switches-per-request \(Double(result.passthroughUsage.contextSwitches) / requests)")
        print("recording cpu-us-per-request \(result.recordingUsage.cpuSeconds / requests * 1e6) switches-per-request \(Double(result.recordingUsage.contextSwitches) / requests)")
        print("ratio-median \(median(result.passthrough) / median(result.recording)) ratio-throughput \(recording / passthrough)")
    case "client-replay":
        guard let count = Int(arguments[2]), let block = Int(arguments[3]), count > 0, block > 0 else { usage() }
        let result = try runDetached { try await ClientReplay(count: count, block: block, rounds: 3).run() }
        let ratios = zip(result.client, result.transport).map { $0 / $1 }
        let requests = Double(result.client.count * block)
        print("client median-us \(median(result.client)) cpu-us-per-request \(result.clientCPU / requests * 1e6)")
        print("transport median-us \(median(result.transport)) cpu-us-per-request \(result.transportCPU / requests * 1e6)")
        print("ratio median \(median(ratios)) min \(ratios.min() ?? 0) max \(ratios.max() ?? 0) blocks \(ratios.count)")
    case "defaults", "features", "cache-hits":
        guard let count = Int(arguments[2]), let block = Int(arguments[3]), count > 0, block > 0 else { usage() }
        let mode: ClientFeatures.Mode = arguments[1] == "defaults" ? .defaults : arguments[1] == "features" ? .features : .cacheHits
        let result = try runDetached { try await ClientFeatures(mode: mode, count: count, block: block, rounds: 3).run() }
        let ratios = zip(result.measured, result.baseline).map { $0 / $1 }
        print("measured median-us \(median(result.measured))")
        print("baseline median-us \(median(result.baseline))")
        print("ratio median \(median(ratios)) min \(ratios.min() ?? 0) max \(ratios.max() ?? 0) blocks \(ratios.count)")
    case "urlsession":
        guard let count = Int(arguments[2]), let block = Int(arguments[3]), count > 0, block > 0 else { usage() }
        let result = try runDetached { try await URLSessionReplay(count: count, block: block, rounds: 3).run() }
        let ratios = zip(result.urlSession, result.client).map { $0 / $1 }
        print("urlsession median-us \(median(result.urlSession))")
        print("client median-us \(median(result.client))")
        print("ratio median \(median(ratios)) min \(ratios.min() ?? 0) max \(ratios.max() ?? 0) blocks \(ratios.count)")
    case "large-put":
        guard let pairs = Int(arguments[2]), pairs > 0 else { usage() }
        let result = try runDetached { try await LargePut(pairs: pairs).run() }
        let ratios = zip(result.record, result.live).map { $0 / $1 }
        print("live median-ms \(median(result.live))")
        print("record median-ms \(median(result.record))")
        print("replay median-ms \(median(result.replay)) max-ms \(result.replay.max() ?? 0)")
        print("ratio median \(median(ratios)) min \(ratios.min() ?? 0) max \(ratios.max() ?? 0) pairs \(ratios.count)")
    case "prune":
        guard let count = Int(arguments[2]), let runs = Int(arguments[3]), count > 1, runs > 0 else { usage() }
        var times: [Double] = []
        for _ in 0..<runs { times.append(try runDetached { try await Prune(count: count).run() }) }
        print("prune \(count) median-seconds \(median(times)) max-seconds \(times.max() ?? 0)")
    default:
        usage()
    }
} catch {
    FileHandle.standardError.write(Data("tapedeck-bench-cassette: \(error)\n".utf8))
    exit(1)
}

/// Runs `work` in a detached task (off the main actor, as a library's caller would) and waits for it.
func runDetached<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<T, any Error>?
    Task.detached {
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        semaphore.signal()
    }
    semaphore.wait()
    return try outcome!.get()
}
