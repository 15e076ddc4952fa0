import Foundation
import TapedeckCassette

/// The checks of `tapedeck lint`: the file must decode, redaction must have nothing left to change (no value under a
/// secret name, no copy of a secret found elsewhere in the cassette), no high-entropy token may be left, interactions
/// may not be older than a maximum age, every redirect hop must be its own interaction, the match rules must tell apart
/// recorded requests whose bodies differ, and `<name>.bodies/` may hold only files a body refers to.
///
/// ```swift
/// let findings = CassetteLinter(maxAge: 90).lint(path: "Cassettes/login.json", now: Date())
/// ```
public struct CassetteLinter: Sendable {
    /// Interactions recorded more than this many days before `now` are reported; `nil` turns the check off.
    public var maxAgeDays: Int?
    /// The secret scanner.
    public var scanner: SecretScanner

    /// Creates a linter.
    public init(maxAge days: Int? = nil, scanner: SecretScanner = SecretScanner()) {
        self.maxAgeDays = days
        self.scanner = scanner
    }

    /// Every finding for the file at `path`.
    public func lint(path: String, now: Date) -> [LintFinding] {
        let loaded: LoadedCassette
        do { loaded = try LoadedCassette.load(path: path) } catch { return [LintFinding.schema(error, file: path)] }
        return lint(loaded, file: path, now: now)
    }

    /// Every finding for a loaded cassette; `file` names it in findings.
    public func lint(_ loaded: LoadedCassette, file: String, now: Date) -> [LintFinding] {
        var findings: [LintFinding] = []
        let hitsByInteraction = scanner.scan(loaded.cassette, body: loaded.bodyData)
        for (index, interaction) in loaded.cassette.interactions.enumerated() {
            let base = "interactions[\(index)]"
            for hit in hitsByInteraction[index] {
                findings.append(LintFinding(file: file, rule: hit.rule, place: hit.place, message: hit.message))
            }
            if let answeredBy = interaction.response?.url {
                findings.append(LintFinding(
                    file: file, rule: .missingHops, place: "\(base).response.url",
                    message: "the request went to \(interaction.request.url) but \(answeredBy) answered: its redirect hops were "
                        + "followed inside one interaction (an earlier recorder), so their statuses and cookies are not in the "
                        + "cassette; it replays the final answer only. Record it again to keep every hop"))
            }
            if let maxAgeDays {
                let days = Int(now.timeIntervalSince(interaction.recordedAt) / 86_400)
                if days > maxAgeDays {
                    findings.append(LintFinding(file: file, rule: .stale, place: "\(base).recordedAt",
                                                message: "recorded \(days) days ago (\(ISO8601.format(interaction.recordedAt))), more than --max-age \(maxAgeDays)"))
                }
            }
        }
        let rules = loaded.cassette.replayRules.matching ?? MatchRule.defaults
        let bodyData: @Sendable (CassetteBody) -> Data? = { [loaded] body in loaded.bodyData(body) }
        for ambiguity in ReplayAmbiguity.find(in: loaded.cassette, matching: rules, bodyBytes: bodyData) {
            findings.append(LintFinding(file: file, rule: .ambiguousMatch, place: "interactions[\(ambiguity.interactions[0])]",
                                        message: ambiguity.description))
        }
        findings += sidecarFindings(loaded, file: file)
        return findings
    }

    func sidecarFindings(_ loaded: LoadedCassette, file: String) -> [LintFinding] {
        var referenced: [String: String] = [:]
        for (index, interaction) in loaded.cassette.interactions.enumerated() {
            let bodies = [("request.body", interaction.request.body)] + (interaction.response.map { [("response.body", $0.body)] } ?? [])
            for (name, body) in bodies {
                if let path = body.sidecarPath {
                    referenced[CassetteFile.sidecarURL(path, cassette: loaded.url).standardizedFileURL.path] = "interactions[\(index)].\(name)"
                }
            }
        }
        var findings: [LintFinding] = []
        for (path, place) in referenced.sorted(by: { $0.value < $1.value }) where !FileManager.default.fileExists(atPath: path) {
            findings.append(LintFinding(file: file, rule: .missingSidecar, place: place, message: "sidecar body \(path) does not exist"))
        }
        let folder = loaded.url.deletingLastPathComponent()
            .appendingPathComponent(loaded.url.deletingPathExtension().lastPathComponent + ".bodies")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder.appendingPathComponent(name).standardizedFileURL.path
            if referenced[path] == nil {
                findings.append(LintFinding(file: file, rule: .unusedSidecar, place: folder.lastPathComponent + "/" + name,
                                            message: "no body refers to this sidecar file"))
            }
        }
        return findings
    }
}
