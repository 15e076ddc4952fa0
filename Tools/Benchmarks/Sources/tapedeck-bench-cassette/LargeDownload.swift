import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// A 160 MiB JSON download (NDJSON records, each with a `session_token` or none), or a generated body of any size, to a
/// file from an in-process StubServer:
/// fetched live, and recorded into a fresh cassette over the same CurlTransport. Past the first 64 MiB the recording
/// redacts the body as it streams to its sidecar file (`BodyRedactionStream`), so this measures that stream against
/// the download itself. The two run in turn `pairs` times, which side goes first alternating; each pair gives a
/// ratio. Also checks that no token reached the sidecar, and reports the process's peak resident memory.
struct LargeDownload {
    let pairs: Int
    /// Whether each record carries a `session_token` (every record then adds a secret to scrub from the rest), or
    /// none does (the common large body: nothing to replace).
    let tokens: Bool
    /// Instead of NDJSON, this many bytes the server generates as it sends them (no body held in the process, so the
    /// peak growth is the client's and the recorder's alone).
    var generated: Int64? = nil
    static let size = 160 << 20

    struct Result {
        var live: [Double] = []
        var record: [Double] = []
        /// Replaying the recording to a file, and `cp` of its sidecar file (milliseconds).
        var replay: [Double] = []
        var copy: [Double] = []
        var peakResidentMiB = 0
        /// How far the peak resident set rose above what the process held before the first download.
        var peakGrowthMiB = 0
    }

    func run() async throws -> Result {
        let server = try StubServer()
        defer { server.stop() }
        if let generated {
            server.route(.get, "/export", response: StubResponse(body: .generated(length: generated)))
        } else {
            let record = #"{"id":"#
            var lines: [String] = []
            var length = 0
            while length < Self.size {
                let token = tokens ? #","session_token":"st-\#(lines.count)-9f8e7d6c5b4a""# : ""
                let line = record + #"\#(lines.count)\#(token),"payload":"\#(String(repeating: "p", count: 400))"}"#
                lines.append(line)
                length += line.utf8.count + 1
            }
            server.route(.get, "/export", response: .json(Data(lines.joined(separator: "\n").utf8)))
            lines = []
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-large-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let download = directory.appendingPathComponent("export.ndjson")
        let request = HTTPRequest(url: server.url("/export"), responseBody: .file(download))
        let live = CurlTransport()
        _ = try await live.send(request)  // connection and caches warm
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)  // the peak starts here
        let baselineMiB = Self.residentMiB(field: "VmRSS:")
        var result = Result()
        for pair in 0..<pairs {
            let file = directory.appendingPathComponent("download-\(pair).json")
            let recorder = try CassetteTransport(cassette: file, mode: .all, upstream: live, environment: [:])
            for side in pair % 2 == 0 ? ["live", "record"] : ["record", "live"] {
                let start = ContinuousClock.now
                let transport: any HTTPTransport = side == "live" ? live : recorder
                let response = try await transport.send(request)
                let elapsed = ClientReplay.microseconds(ContinuousClock.now - start) / 1000
                guard response.statusCode == 200 else { throw BenchFailure("the download answered \(response.statusCode)") }
                if side == "live" { result.live.append(elapsed) } else { result.record.append(elapsed) }
            }
            try recorder.finish()
            // The peak of the downloads and the save, before the check below maps the sidecar file into memory.
            result.peakResidentMiB = max(result.peakResidentMiB, Self.peakResidentMiB())
            result.peakGrowthMiB = max(result.peakGrowthMiB, Self.peakResidentMiB() - baselineMiB)
            let stored = try CassetteFile.load(file).interactions.first?.response?.body
            guard let stored, let path = stored.sidecarPath, stored.byteCount > Int64(min(Self.size, Int(generated ?? Int64(Self.size))) / 2) else {
                throw BenchFailure("the recording has no large sidecar body")
            }
            try Self.checkNoToken(in: directory.appendingPathComponent(path))
            // Replaying the recording to a file, against `cp` of its sidecar file, in turn.
            let player = try CassetteTransport(cassette: file, mode: .replay, environment: [:])
            for side in pair % 2 == 0 ? ["replay", "cp"] : ["cp", "replay"] {
                let copy = directory.appendingPathComponent("\(side)-\(pair).out")
                // Each side starts with no dirty page waiting: the gigabytes written before (the downloads, the other
                // side) are written back first, untimed, rather than throttling whichever side comes next.
                sync()
                let start = ContinuousClock.now
                if side == "replay" {
                    _ = try await player.send(HTTPRequest(url: request.url, responseBody: .file(copy)))
                } else {
                    let cp = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [directory.appendingPathComponent(path).path, copy.path])
                    cp.waitUntilExit()
                }
                let elapsed = ClientReplay.microseconds(ContinuousClock.now - start) / 1000
                if side == "replay" { result.replay.append(elapsed) } else { result.copy.append(elapsed) }
                if ProcessInfo.processInfo.environment["VERBOSE"] != nil { FileHandle.standardError.write(Data("pair \(pair) \(side) \(elapsed) ms\n".utf8)) }
                try? FileManager.default.removeItem(at: copy)
            }
            try? FileManager.default.removeItem(at: file.deletingPathExtension().appendingPathExtension("bodies"))
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        }
        return result
    }

    /// Throws when a token reached the sidecar file; the mapping is gone when it returns, so that the next peak
    /// measured does not count it.
    static func checkNoToken(in sidecar: URL) throws {
        let bytes = try Data(contentsOf: sidecar, options: .alwaysMapped)
        guard bytes.range(of: Data("-9f8e7d6c5b4a".utf8)) == nil else { throw BenchFailure("a token reached the sidecar file") }
    }

    /// VmHWM from /proc/self/status, in MiB.
    static func peakResidentMiB() -> Int { residentMiB(field: "VmHWM:") }

    /// A field of /proc/self/status given in kB, in MiB.
    static func residentMiB(field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}
