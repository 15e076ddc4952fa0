import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckTestSupport

/// Replay is the live run, on any day: each session flow (cookies across redirects, every redirect status, ETag and
/// Last-Modified revalidation, max-age and Expires, Digest, a retry after `Retry-After`, a token from a login body sent
/// back) is recorded live, then replayed (a) in this process, (b) in a fresh process, (c) in a fresh process whose
/// wall clock is a year ahead (libfaketime), and (d) in a fresh process with Swift's hash seed fixed instead of
/// random. Every time the trail (status, final URL, body, cookie store, every sent request's headers) is the live one,
/// with each secret as its stand-in.
@Suite(.serialized) struct DeterminismTests {
    @Test(arguments: SessionStateFlows.names)
    func everyReplayGivesTheLiveTrail(flow: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secrets = SessionStateFlows.Secrets.fresh()
        let server = try SessionStateFlows.server(secrets: secrets)
        let base = server.url("/")
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        let live = try await SessionStateFlows.run(flow, base: base, secrets: secrets, over: recorder)
        try recorder.finish()
        server.stop()
        #expect(!live.isEmpty && live.allSatisfy { $0.status < 500 || flow == "retry" }, "\(flow) live: \(live.map(\.status))")

        let salt = try #require(CassetteFile.load(directory.cassette()).redactionSalt)
        let expected = Self.normalized(live, standingIn: [secrets.session, secrets.token], salt: salt)

        let player = try openCassette(directory.cassette(), mode: .replay)
        let inProcess = try await SessionStateFlows.run(flow, base: base, secrets: secrets, over: player)
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
        Self.expect(Self.normalized(inProcess, standingIn: [secrets.session, secrets.token], salt: salt), equals: expected, "\(flow) (a) in process")

        let secretsJSON = String(decoding: try JSONEncoder().encode(secrets), as: UTF8.self)
        let replayer = ServingCommand.builtExecutable("tapedeck-flow-replay")
        let arguments = [directory.cassette().path, flow, base.absoluteString, secretsJSON]
        // A year ahead: libfaketime moves the child's wall clock. Swift's Task.sleep never returns under libfaketime
        // 0.9.10 (its timers are faked too), so the flow that waits out a Retry-After is moved the other way: its
        // cassette is aged by a year (every recorded time and date), which is the same replay a year later.
        var yearAhead = arguments
        var yearAheadTool = try #require(ExternalCommand.find("faketime"), "faketime (Debian package faketime)")
        var yearAheadArguments = ["-f", "+366d", replayer.path]
        if flow == "retry" {
            let aged = directory.file("aged.json")
            try Self.age(directory.cassette(), by: 366 * 86_400, into: aged)
            yearAhead[0] = aged.path
            yearAheadTool = replayer
            yearAheadArguments = []
        }
        let variants: [(String, URL, [String], [String: String])] = [
            ("(b) a fresh process", replayer, arguments, ["SWIFT_DETERMINISTIC_HASHING": ""]),
            ("(c) a year ahead", yearAheadTool, yearAheadArguments + yearAhead, ["FAKETIME_DONT_FAKE_MONOTONIC": "1"]),
            ("(d) a fixed hash seed", replayer, arguments, ["SWIFT_DETERMINISTIC_HASHING": "1"]),
        ]
        let timeout = try #require(ExternalCommand.find("timeout"))
        for (name, tool, toolArguments, environment) in variants {
            // Bounded: a replay that hangs fails here after two minutes instead of holding the suite.
            let output = try await Self.run(timeout, ["120", tool.path] + toolArguments, environment: environment)
            #expect(output.status == 0, "\(flow) \(name): \(output.standardError)")
            guard output.status == 0 else { continue }
            let trail = try JSONDecoder().decode([SessionStateFlows.Step].self, from: output.standardOutput)
            Self.expect(Self.normalized(trail, standingIn: [secrets.session, secrets.token], salt: salt), equals: expected, "\(flow) \(name)")
        }
    }

    /// A trail with each of `secrets` replaced by its stand-in under `salt` (the client sends the real session it was
    /// given in a URL live and in replay; the cassette holds its stand-in), and the parts of a Digest answer that
    /// are random by design (its client nonce, hence its response hash) reduced to their names.
    static func normalized(_ trail: [SessionStateFlows.Step], standingIn secrets: [String], salt: RedactionSalt) -> [SessionStateFlows.Step] {
        func scrub(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: StandIn.make(for: $1, salt: salt)) }
        }
        return trail.map { step in
            var step = step
            step.body = scrub(step.body)
            step.cookies = scrub(step.cookies)
            step.finalURL = scrub(step.finalURL)
            step.sent = step.sent.map { lines in
                lines.map { line in
                    guard line.hasPrefix("Authorization: Digest ") else { return scrub(line) }
                    let names = line.dropFirst("Authorization: Digest ".count).split(separator: ",")
                        .map { $0.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
                    return "Authorization: Digest " + names.sorted().joined(separator: ",")
                }
            }
            return step
        }
    }

    static func expect(_ trail: [SessionStateFlows.Step], equals expected: [SessionStateFlows.Step], _ comment: String) {
        #expect(trail.count == expected.count, "\(comment): \(trail.count) steps, live \(expected.count)")
        for (index, (step, live)) in zip(trail, expected).enumerated() where step != live {
            Issue.record("\(comment), step \(index): replayed \(step), live \(live)")
        }
    }

    /// `cassette` as if recorded `seconds` earlier, written to `destination`.
    static func age(_ cassette: URL, by seconds: TimeInterval, into destination: URL) throws {
        var aged = try CassetteFile.load(cassette)
        for index in aged.interactions.indices {
            aged.interactions[index].recordedAt.addTimeInterval(-seconds)
            if case .response(let response) = aged.interactions[index].outcome {
                aged.interactions[index].outcome = .response(RecordedDateShift.shifted(response, by: -seconds))
            }
        }
        try CassetteFile.save(aged, to: destination)
    }

    /// Runs a tool with `environment` over this process's (an empty value removes the variable).
    static func run(_ tool: URL, _ arguments: [String], environment: [String: String]) async throws -> ExternalCommand.Output {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment {
            if value.isEmpty { merged.removeValue(forKey: name) } else { merged[name] = value }
        }
        return try await ExternalCommand.run(tool, arguments, environment: merged)
    }
}
