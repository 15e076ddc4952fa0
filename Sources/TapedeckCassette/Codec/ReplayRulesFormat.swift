import Foundation
import TapedeckCore

/// Reads and writes a cassette's `replay` member (``ReplayRules``, format version 3; see `Cassettes/FORMAT.md`):
///
/// ```json
/// "replay": {"match": ["method", "host", "path", "graphql"], "repeats": true, "pacing": 1, "clock": "recorded"}
/// ```
enum ReplayRulesFormat {
    /// Writes `"replay": {…}` with the members `rules` stores; nothing when it stores none.
    static func write(_ rules: ReplayRules, in object: inout JSONWriter.Container, of writer: inout JSONWriter) {
        guard !rules.isEmpty else { return }
        writer.key("replay", in: &object)
        var members = writer.beginObject(level: object.childLevel)
        if let matching = rules.matching {
            writer.member("match", .array(matching.map { .string($0.description) }), in: &members)
        }
        if let repeats = rules.allowPlaybackRepeats { writer.member("repeats", .bool(repeats), in: &members) }
        if let pacing = rules.pacing { writer.member("pacing", .number(spelled(pacing.scale ?? 0)), in: &members) }
        if let clock = rules.replayTime { writer.member("clock", string: clock.rawValue, in: &members) }
        writer.end(members)
    }

    /// Reads the `replay` member, refusing anything it does not know at its place.
    static func decode(_ json: CassetteJSON, file: String) throws(CassetteError) -> ReplayRules {
        let fields = FieldReader(json, path: "replay", file: file)
        guard let members = json.objectValue else { throw CassetteError.invalidFormat(file: file, path: "replay", reason: "expected an object") }
        let known = ["match", "repeats", "pacing", "clock"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw fields.invalid(unknown.key, "unknown replay rule; a cassette stores \(known.joined(separator: ", "))")
        }
        var rules = ReplayRules()
        if json["match"] != nil {
            var matching: [MatchRule] = []
            for (index, element) in try fields.array("match").enumerated() {
                guard let text = element.stringValue else { throw fields.invalid("match[\(index)]", "expected a rule as a string, e.g. \"method\"") }
                do { matching.append(try MatchRule.parseOne(text)) } catch { throw fields.invalid("match[\(index)]", error.reason) }
            }
            guard !matching.isEmpty else { throw fields.invalid("match", "an empty list would match every request with every interaction") }
            rules.matching = matching
        }
        rules.allowPlaybackRepeats = try fields.optionalBool("repeats")
        if let value = json["pacing"] {
            guard let scale = value.doubleValue, scale >= 0, scale.isFinite else {
                throw fields.invalid("pacing", "expected a scale of at least 0 (0: at once, 1: as recorded)")
            }
            rules.pacing = scale > 0 ? .recorded(scale: scale) : .instant
        }
        if let text = try fields.optionalString("clock") {
            guard let clock = ReplayTime(rawValue: text) else {
                throw fields.invalid("clock", "expected \(ReplayTime.allCases.map { Shown.quoted($0.rawValue) }.joined(separator: " or ")), found \(Shown.quoted(text))")
            }
            rules.replayTime = clock
        }
        return rules
    }

    /// A scale as JSON spells it: `1`, `0.5`.
    private static func spelled(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e15 ? String(Int64(scale)) : "\(scale)"
    }
}
