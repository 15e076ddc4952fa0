import CassetteBenchSupport
import Foundation
import TapedeckCassette
import TapedeckCore

/// What stand-ins cost a replay: the same synthetic cassette, each request carrying a bearer token and each response
/// setting a session cookie, redacted once with `[REDACTED]` placeholders (as cassettes were before stand-ins) and
/// once with stand-ins; replayed in alternating blocks within one process, with requests that carry a real token
/// (which matching redacts, into a stand-in under the salt on one side).
struct StandInReplay {
    let count: Int
    let block: Int
    let rounds: Int

    struct Result {
        /// Microseconds per request of each block, per side.
        var placeholders: [Double] = []
        var standIns: [Double] = []
        var standInCount = 0
    }

    func run() async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stand-in-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var secretBearing = SyntheticCassette.make(count: count)
        for index in secretBearing.interactions.indices {
            secretBearing.interactions[index].request.headers["Authorization"] = "Bearer \(Self.token(index))"
            if case .response(var response) = secretBearing.interactions[index].outcome {
                response.headers.add(name: "Set-Cookie", value: "sid=session-\(index)-0123456789abcdef; Path=/; HttpOnly")
                secretBearing.interactions[index].outcome = .response(response)
            }
        }
        var standIns = secretBearing
        Redaction.default.redact(&standIns)
        var placeholders = secretBearing
        for index in placeholders.interactions.indices {
            placeholders.interactions[index].request.headers["Authorization"] = "Bearer \(Redaction.placeholder)"
            if case .response(var response) = placeholders.interactions[index].outcome {
                response.headers["Set-Cookie"] = Redaction.placeholder
                placeholders.interactions[index].outcome = .response(response)
            }
        }
        let placeholderFile = folder.appendingPathComponent("placeholders.json"), standInFile = folder.appendingPathComponent("stand-ins.json")
        try CassetteFile.save(placeholders, to: placeholderFile)
        try CassetteFile.save(standIns, to: standInFile)
        var result = Result()
        result.standInCount = StandIn.all(in: String(decoding: try Data(contentsOf: standInFile), as: UTF8.self)).count
        let requests = (0..<count).map { index in
            HTTPRequest(url: URL(string: SyntheticCassette.url(index))!,
                        headers: ["Accept": "application/json", "User-Agent": "tapedeck-bench/1", "Authorization": "Bearer \(Self.token(index))"])
        }
        // Round 0 warms both sides up and is not counted; each round opens both cassettes afresh (every interaction
        // is played once per round).
        for round in 0...rounds {
            let a = try CassetteTransport(cassette: placeholderFile, mode: .replay, environment: [:])
            let b = try CassetteTransport(cassette: standInFile, mode: .replay, environment: [:])
            for start in stride(from: 0, to: count, by: block) {
                let range = start..<min(count, start + block)
                // Which side goes first alternates by block, so that neither gets the first slot more often (by round
                // it was three rounds to two, and the side that goes first in a pair runs slower).
                let first = (round + start / block) % 2 == 0
                let (x, y) = first ? (a, b) : (b, a)
                let t0 = ContinuousClock.now
                for index in range { _ = try await x.send(requests[index]) }
                let t1 = ContinuousClock.now
                for index in range { _ = try await y.send(requests[index]) }
                let t2 = ContinuousClock.now
                guard round > 0 else { continue }
                let (timeA, timeB) = first ? (t1 - t0, t2 - t1) : (t2 - t1, t1 - t0)
                result.placeholders.append(ClientReplay.microseconds(timeA) / Double(range.count))
                result.standIns.append(ClientReplay.microseconds(timeB) / Double(range.count))
            }
        }
        return result
    }

    /// One session's token, as an app sends it with every request.
    static func token(_ index: Int) -> String { "tok-9f8e7d6c5b4a3928-0123456789" }
}
