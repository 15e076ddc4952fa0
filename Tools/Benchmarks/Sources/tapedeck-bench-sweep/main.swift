import CassetteBenchSupport
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckTesting
#if canImport(Glibc)
import Glibc
#endif

// The fault sweep's budget (issue H3): a 20-interaction cassette over the 8 faults (160 runs of a body that replays
// the whole flow, each request's error caught as a client would) in at most 2 s in process.
//
//     swift run -c release tapedeck-bench-sweep [INTERACTIONS] [ROUNDS]
//
// Prints each round's wall and CPU time for the whole sweep, then the median, min and max.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 20
let rounds = arguments.dropFirst().first ?? 7

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-bench-sweep-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let cassette = folder.appendingPathComponent("flow.json")
try CassetteFile.save(SyntheticCassette.make(count: count), to: cassette)
let requests = (0..<count).map { index in
    HTTPRequest(url: URL(string: SyntheticCassette.url(index))!, headers: ["Accept": "application/json", "User-Agent": "tapedeck-bench/1"])
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

var walls: [Double] = []
for round in 1...rounds {
    let sweep = try FaultSweep(cassette: cassette, clock: InstantWallClock())
    let start = ContinuousClock.now
    let cpu = cpuSeconds()
    let report = await sweep.run { _, transport in
        for request in requests { _ = try? await transport.send(request) }
    }
    let wall = (ContinuousClock.now - start).inSeconds
    let cpuUsed = cpuSeconds() - cpu
    walls.append(wall)
    print(String(format: "round %d: %d runs (%d skipped), %d requests each: %.3f s wall, %.3f s CPU, %.1f µs per request",
                 round, report.results.count, report.skipped.count, count, wall, cpuUsed,
                 wall / Double(report.results.count * count) * 1e6))
}
let sorted = walls.sorted()
print(String(format: "median %.3f s (min %.3f, max %.3f) for %d × %d pairs", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1],
             count, 8))
