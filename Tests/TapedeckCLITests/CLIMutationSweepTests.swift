import Foundation
import Testing
import TapedeckTestSupport

/// The black-box mutation sweep of `tapedeck` (``CLIMutationSweep``), bounded to a few hundred runs so it runs on
/// every change; `Tools/dev/cli-sweep.sh N` runs a larger one against the release binary through the same test.
///
/// Its environment: `TAPEDECK_SWEEP_BINARY` (default: the built `tapedeck`), `TAPEDECK_SWEEP_INPUTS` (how many
/// inputs, default unbounded), `TAPEDECK_SWEEP_RUNS` (most verb runs, default 300), `TAPEDECK_SWEEP_BUDGET` (most
/// seconds, default 30), `TAPEDECK_SWEEP_SEED` (default 1), `TAPEDECK_SWEEP_FIRST` (the first input's number,
/// default 0), `TAPEDECK_SWEEP_JOBS` (inputs at once, default 1), `TAPEDECK_SWEEP_TIME_LIMIT` (seconds before a run
/// is a hang, default 10), `TAPEDECK_SWEEP_KEEP` (a folder for failing inputs) and `TAPEDECK_SWEEP_REPORT` (a file
/// for the counts).
@Suite struct CLIMutationSweepTests {
    static let environment = ProcessInfo.processInfo.environment

    static func number(_ name: String, _ fallback: Int) -> Int { environment[name].flatMap { Int($0) } ?? fallback }

    @Test func noDamagedInputCrashesHangsOrIsRefusedUnclearly() async throws {
        var sweep = CLIMutationSweep(executable: Self.environment["TAPEDECK_SWEEP_BINARY"].map { URL(fileURLWithPath: $0) } ?? ServingCommand.tapedeck,
                                     seed: UInt64(Self.number("TAPEDECK_SWEEP_SEED", 1)))
        sweep.workers = Self.number("TAPEDECK_SWEEP_JOBS", 1)
        sweep.timeLimit = TimeInterval(Self.number("TAPEDECK_SWEEP_TIME_LIMIT", 10))
        sweep.keepFolder = Self.environment["TAPEDECK_SWEEP_KEEP"].map { URL(fileURLWithPath: $0) }
        let first = Self.number("TAPEDECK_SWEEP_FIRST", 0), inputs = Self.number("TAPEDECK_SWEEP_INPUTS", Int.max - first)
        let tally = try await sweep.run(inputs: first..<(first + inputs),
                                  maximumRuns: Self.number("TAPEDECK_SWEEP_RUNS", 300),
                                  timeBudget: TimeInterval(Self.number("TAPEDECK_SWEEP_BUDGET", 30)))
        let report = tally.report()
        if let path = Self.environment["TAPEDECK_SWEEP_REPORT"] { try Data(report.utf8).write(to: URL(fileURLWithPath: path)) }
        #expect(tally.runs >= min(20, inputs), "the sweep ran only \(tally.runs) commands")
        #expect(tally.harnessErrors.isEmpty, "\(tally.harnessErrors)")
        for kind in SweepClass.allCases where kind.isFailure {
            #expect(tally.count(kind) == 0, "\(tally.count(kind)) \(kind.rawValue) run(s):\n\(report)")
        }
    }

    @Test func anInputIsMadeAgainFromItsNumberAlone() throws {
        let sweep = CLIMutationSweep(executable: ServingCommand.tapedeck, seed: 7)
        for number in [0, 9, 23, 55] {
            let once = try sweep.input(number), again = try sweep.input(number)
            #expect(once.data == again.data && once.seed.source == again.seed.source && once.mutation == again.mutation)
        }
        #expect(try sweep.input(3).data != CLIMutationSweep(executable: ServingCommand.tapedeck, seed: 8).input(3).data)
    }

    @Test func everyKindAndMutationIsReachedWithinTheFirstInputs() throws {
        let sweep = CLIMutationSweep(executable: ServingCommand.tapedeck, seed: 1)
        let count = SweepInputKind.allCases.count * SweepMutation.allCases.count
        let inputs = try (0..<count).map { try sweep.input($0) }
        #expect(Set(inputs.map(\.seed.kind)) == Set(SweepInputKind.allCases))
        #expect(Set(inputs.map(\.mutation)) == Set(SweepMutation.allCases))
        #expect(Set(inputs.map { "\($0.seed.kind)-\($0.mutation)" }).count == count)
    }

    @Test func numericExtremesReplaceNumbersAndTruncationShortens() {
        var random = SweepRandom(seed: 3)
        let seed = Data(#"{"status": 200, "size": -12}"#.utf8)
        let extreme = String(decoding: SweepMutation.numericExtreme.apply(to: seed, other: seed, random: &random), as: UTF8.self)
        #expect(!extreme.contains("200") || !extreme.contains("-12"), "\(extreme)")
        #expect(SweepMutation.extremes.contains { extreme.contains($0) }, "\(extreme)")
        #expect(SweepMutation.numberRanges(in: [UInt8](seed)) == [11..<14, 24..<27])
        for _ in 0..<20 { #expect(SweepMutation.truncate.apply(to: seed, other: seed, random: &random).count <= seed.count) }
    }

    @Test func endingsAreClassified() {
        let inspect = SweepVerb.inspect, lint = SweepVerb.lint, serve = SweepVerb.serve("serve", [])
        let file = "/tmp/run/cassette.json"
        func ending(_ termination: SweepEnding.Termination, _ stderr: String = "", _ stdout: String = "") -> SweepEnding {
            SweepEnding(termination: termination, stdout: stdout, stderr: stderr)
        }
        #expect(ending(.exit(0)).classify(verb: inspect, file: file) == .ok)
        #expect(ending(.exit(1), "Error: /tmp/run/cassette.json: line 3, column 4: expected a value").classify(verb: inspect, file: file) == .refusal)
        #expect(ending(.exit(1), "Error: cassette.json: not JSON").classify(verb: inspect, file: file) == .refusal)
        #expect(ending(.exit(1), "Error: The data couldn't be read").classify(verb: inspect, file: file) == .unclear)
        #expect(ending(.exit(1), "cassette.json: NSCocoaErrorDomain error 256").classify(verb: inspect, file: file) == .unclear)
        #expect(ending(.exit(1)).classify(verb: inspect, file: file) == .unclear)
        #expect(ending(.exit(1), "", "cassette.json: $: [stale] …").classify(verb: lint, file: file) == .ok)
        #expect(ending(.signal(SIGSEGV)).classify(verb: inspect, file: file) == .crash)
        #expect(ending(.signal(SIGINT)).classify(verb: serve, file: file) == .ok)
        #expect(ending(.signal(SIGINT)).classify(verb: inspect, file: file) == .crash)
        #expect(ending(.timedOut).classify(verb: serve, file: file) == .hang)
        #expect(ending(.exit(1), "x.json: line 3, column 4: bad").namesAPlace)
        #expect(ending(.exit(1), "x.json: invalid stub definition at stubs[0].request.method").namesAPlace)
        #expect(!ending(.exit(1), "x.json: is a directory, not a file").namesAPlace)
        #expect(ending(.exit(1), #"x.json: invalid stub definition at request["   "]: unknown field"#).namesAPlace)
        #expect(ending(.exit(1), "x.yaml: Found neither a $ref nor a Response in .responses.404 for the **GET** endpoint under `/pets`.").namesAPlace)
        #expect(!ending(.exit(1), "x.yaml: the **GET** endpoint is wrong").namesAPlace)
        #expect(ending(.exit(1), "x.json: invalid stub definition at delay.éé: unknown field").namesAPlace)
        #expect(ending(.exit(1), "cassette x.json is not a valid cassette at version: missing").namesAPlace)
        // A statement about the whole file is not placed by naming the file alone (any vague refusal would pass); it
        // names the part of the file it is about, as `convert --to pact` does for a cassette with no host.
        #expect(!ending(.exit(1), "x.json has no request with a host to name the provider after; give --provider NAME").namesAPlace)
        #expect(ending(.exit(1), "x.json: no URL at $.interactions[*].request.url has a host to name the provider after; give --provider NAME").namesAPlace)
        #expect(ending(.exit(1), "api.yaml: a value JSON cannot hold: x (at $.paths['/pets'].get.responses.200.content['application/json'].examples.Cat.value.id)").namesAPlace)
        #expect(ending(.exit(1), "api.yaml: Problem encountered when parsing `url` (at $.servers[1].url)").namesAPlace)
    }
}
