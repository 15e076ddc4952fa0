import Foundation

/// How a cassette is replayed, written into it by whoever recorded it, so that every replay path (in process, the
/// test traits, `tapedeck serve`, the proxies, `fetch`, `sweep`, `verify`) replays it the same way for any client.
/// Each member is optional: what is `nil` is not stored, and replay uses the default for it (or what the replaying
/// configuration sets). A rule set in code (``CassetteConfiguration``) overrides the stored one, and says so.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.matching = [.method, .host, .path, .graphQL()]   // stored when recording, used by every replay
/// let rules = try CassetteFile.load(url).replayRules
/// rules.matching?.spelled                                        // "method,host,path,graphql"
/// ```
public struct ReplayRules: Sendable, Hashable, CustomStringConvertible {
    /// The match rules, when stored. Only rules that can be written down (``MatchRule/isStorable``).
    public var matching: [MatchRule]?
    /// Whether an interaction already played may answer again, when stored.
    public var allowPlaybackRepeats: Bool?
    /// How bodies and frames are paced, when stored.
    public var pacing: ReplayTiming?
    /// Which clock the replay runs on, when stored.
    public var replayTime: ReplayTime?

    /// Rules that store nothing: every replay uses its defaults.
    public init(matching: [MatchRule]? = nil, allowPlaybackRepeats: Bool? = nil, pacing: ReplayTiming? = nil,
                replayTime: ReplayTime? = nil) {
        self.matching = matching
        self.allowPlaybackRepeats = allowPlaybackRepeats
        self.pacing = pacing
        self.replayTime = replayTime
    }

    /// Whether nothing is stored.
    public var isEmpty: Bool { matching == nil && allowPlaybackRepeats == nil && pacing == nil && replayTime == nil }

    /// `match method,host,path,graphql; repeats; pacing 1.0; clock now`, the members stored.
    public var description: String {
        var parts: [String] = []
        if let matching { parts.append("match \(matching.spelled)") }
        if let allowPlaybackRepeats { parts.append(allowPlaybackRepeats ? "repeats" : "no repeats") }
        if let pacing { parts.append("pacing \(pacing.scale.map { "\($0)" } ?? "0")") }
        if let replayTime { parts.append("clock \(replayTime.rawValue)") }
        return parts.isEmpty ? "defaults" : parts.joined(separator: "; ")
    }

    public static func == (a: ReplayRules, b: ReplayRules) -> Bool {
        a.matching?.spelled == b.matching?.spelled && a.allowPlaybackRepeats == b.allowPlaybackRepeats
            && a.pacing == b.pacing && a.replayTime == b.replayTime
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(matching?.spelled)
        hasher.combine(allowPlaybackRepeats)
        hasher.combine(pacing)
        hasher.combine(replayTime)
    }
}
