import Foundation
import TapedeckCore
import TapedeckTestSupport

/// A black-box mutation sweep of the `tapedeck` binary: damaged copies of the package's fixtures of every input
/// kind, each run through every verb that reads that kind, each ending classified (``SweepClass``).
///
/// Input `i` depends only on the seed and `i`, so any finding can be made again alone:
/// ```swift
/// var sweep = CLIMutationSweep(executable: ServingCommand.tapedeck, seed: 1)
/// let tally = try await sweep.run(inputs: 0..<50, maximumRuns: 300, timeBudget: 30)
/// print(tally.report())
/// ```
struct CLIMutationSweep: Sendable {
    var executable: URL
    var seed: UInt64
    var timeLimit: TimeInterval = 10
    /// How many inputs run at once.
    var workers = 1
    /// Where to copy each input that crashed, hung or was refused unclearly, with the command and its output.
    var keepFolder: URL?

    /// One damaged input, made again from the seed and its number.
    struct Input {
        var number: Int
        var seed: SweepSeed
        var mutation: SweepMutation
        var data: Data
    }

    /// The damaged input number `number`: the kinds and mutations taken in turn, the seed file and the damage drawn.
    func input(_ number: Int) throws -> Input {
        var random = SweepRandom(seed: seed &+ UInt64(number) &* 0xD1B5_4A32_D192_ED03)
        let kinds = SweepInputKind.allCases, mutations = SweepMutation.allCases
        let kind = kinds[number % kinds.count]
        let mutation = mutations[(number / kinds.count) % mutations.count]
        let seeds = SweepSeed.all.filter { $0.kind == kind }
        let chosen = random.pick(seeds)
        let other = try random.pick(seeds).data
        return Input(number: number, seed: chosen, mutation: mutation, data: mutation.apply(to: try chosen.data, other: other, random: &random))
    }

    /// Runs the inputs numbered `inputs` until `maximumRuns` verb runs or `timeBudget` seconds are spent.
    ///
    /// The workers are threads of their own, and the caller awaits them rather than blocking: a test blocked for the
    /// sweep's 30 s held one of the 2 cooperative threads of the whole suite, and with any other slow test beside it
    /// every test stalled (a FaultTests request never reached its server in CI).
    func run(inputs: Range<Int>, maximumRuns: Int, timeBudget: TimeInterval) async throws -> SweepTally {
        let tally = Locked(SweepTally())
        let next = Locked(inputs.lowerBound)
        let deadline = Date().addingTimeInterval(timeBudget)
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<max(1, workers) {
            group.enter()
            Thread {
                defer { group.leave() }
                while Date() < deadline, tally.withLock({ $0.runs }) < maximumRuns {
                    let number = next.withLock { value -> Int in defer { value += 1 }; return value }
                    guard number < inputs.upperBound else { return }
                    do { try runInput(number, into: tally) } catch { failures.withLock { $0.append("input \(number): \(error)") } }
                }
            }.start()
        }
        await withCheckedContinuation { finished in group.notify(queue: .global()) { finished.resume() } }
        var result = tally.withLock { $0 }
        result.harnessErrors = failures.withLock { $0 }
        return result
    }

    /// Writes input `number` into a fresh folder with its companions and runs every verb of its kind on it.
    private func runInput(_ number: Int, into tally: Locked<SweepTally>) throws {
        let input = try input(number)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(input.seed.destination)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (source, destination) in input.seed.companions {
            try FileManager.default.copyItem(at: SweepSeed.root.appendingPathComponent(source), to: folder.appendingPathComponent(destination))
        }
        let runner = SweepRun(executable: executable, timeLimit: timeLimit)
        for verb in input.seed.kind.verbs {
            // Each verb reads the damaged file as it was made: redact and a conversion may rewrite it.
            try input.data.write(to: file)
            let ending = try runner.run(verb, input: file, folder: folder)
            let kind = ending.classify(verb: verb, file: file.path)
            let placeless = kind == .refusal && !ending.namesAPlace
            tally.withLock { $0.add(kind, verb: verb.name, input: input.seed.kind.rawValue, mutation: input.mutation.rawValue,
                                  placeless: placeless ? ending.stderr : nil) }
            if kind.isFailure {
                let finding = "\(kind.rawValue): input \(number) (\(input.seed.source), \(input.mutation.rawValue)), \(verb.name): "
                    + String(describing: ending.termination) + " " + ending.stderr.prefix(300).replacingOccurrences(of: "\n", with: " ⏎ ")
                tally.withLock { $0.findings.append(finding) }
                try keep(input, verb: verb, ending: ending, finding: finding)
            }
        }
    }

    /// Copies a failing input to ``keepFolder`` as `<number>-<file name>` with a `.txt` that tells how to run it.
    private func keep(_ input: Input, verb: SweepVerb, ending: SweepEnding, finding: String) throws {
        guard let keepFolder else { return }
        try FileManager.default.createDirectory(at: keepFolder, withIntermediateDirectories: true)
        let name = "\(input.number)-\((input.seed.destination as NSString).lastPathComponent)"
        try input.data.write(to: keepFolder.appendingPathComponent(name))
        let note = "\(finding)\ncommand: tapedeck \(verb.arguments.joined(separator: " "))\nstdout:\n\(ending.stdout)\nstderr:\n\(ending.stderr)\n"
        try Data(note.utf8).write(to: keepFolder.appendingPathComponent(name + ".txt"))
    }
}

/// The counts of a sweep: per class overall, per verb, per input kind and per mutation.
struct SweepTally: Sendable {
    var runs = 0
    var classes: [SweepClass: Int] = [:]
    var byVerb: [String: [SweepClass: Int]] = [:]
    var byInput: [String: [SweepClass: Int]] = [:]
    var byMutation: [String: [SweepClass: Int]] = [:]
    /// Clear refusals that name the file but no place in it.
    var placeless = 0
    /// How those refusals are worded, with their counts: the message with numbers and paths masked.
    var placelessWordings: [String: Int] = [:]
    /// One line per crash, hang or unclear refusal.
    var findings: [String] = []
    /// Inputs the harness itself could not run (a fixture missing, a full disk).
    var harnessErrors: [String] = []

    mutating func add(_ kind: SweepClass, verb: String, input: String, mutation: String, placeless: String?) {
        runs += 1
        classes[kind, default: 0] += 1
        byVerb[verb, default: [:]][kind, default: 0] += 1
        byInput[input, default: [:]][kind, default: 0] += 1
        byMutation[mutation, default: [:]][kind, default: 0] += 1
        if let placeless {
            self.placeless += 1
            placelessWordings[Self.wording(of: placeless), default: 0] += 1
        }
    }

    func count(_ kind: SweepClass) -> Int { classes[kind, default: 0] }

    /// The first line of a refusal with its paths and numbers masked, so that one wording is counted once.
    static func wording(of stderr: String) -> String {
        let line = stderr.split(separator: "\n").first.map(String.init) ?? ""
        return String(line.replacing(/\/[^\s:,'"]+/, with: "PATH").replacing(/\d+/, with: "N").prefix(160))
    }

    /// A plain-text table of the counts, then the findings.
    func report() -> String {
        let header = (["", "runs"] + SweepClass.allCases.map(\.rawValue)).joined(separator: "\t")
        func rows(_ title: String, _ table: [String: [SweepClass: Int]]) -> String {
            "\(title)\n\(header)\n" + table.keys.sorted().map { key in
                let counts = table[key]!
                return ([key, String(counts.values.reduce(0, +))] + SweepClass.allCases.map { String(counts[$0, default: 0]) }).joined(separator: "\t")
            }.joined(separator: "\n")
        }
        let total = (["all", String(runs)] + SweepClass.allCases.map { String(count($0)) }).joined(separator: "\t")
        let wordings = placelessWordings.sorted { $0.value > $1.value }.prefix(25).map { "\t\($0.value)\t\($0.key)" }
        return ["\(header)\n\(total)", "clear refusals naming no place: \(placeless)\n" + wordings.joined(separator: "\n"),
                rows("per verb", byVerb), rows("per input kind", byInput), rows("per mutation", byMutation),
                "findings (\(findings.count)):\n" + findings.joined(separator: "\n"),
                harnessErrors.isEmpty ? "" : "harness errors:\n" + harnessErrors.joined(separator: "\n")].joined(separator: "\n\n")
    }
}
