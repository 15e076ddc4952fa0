import Foundation

extension CassetteConfiguration {
    /// This configuration with every replay rule it leaves unset (``chosen``) taken from `stored`, a cassette's
    /// ``Cassette/replayRules``: how every replay path applies a cassette's own rules.
    ///
    /// ```swift
    /// let effective = configuration.replaying(cassette.replayRules)
    /// effective.matching.spelled    // the cassette's rules unless the configuration set its own
    /// ```
    public func replaying(_ stored: ReplayRules) -> CassetteConfiguration {
        var result = self
        if chosen.matching == nil, let matching = stored.matching { result.matching = matching }
        if chosen.allowPlaybackRepeats == nil, let repeats = stored.allowPlaybackRepeats { result.allowPlaybackRepeats = repeats }
        if chosen.pacing == nil, let pacing = stored.pacing { result.timing = pacing }
        if chosen.replayTime == nil, let clock = stored.replayTime { result.replayTime = clock }
        return result
    }

    /// One line for each replay rule set here that differs from the one `stored` holds, for the replay to say that
    /// it overrides the cassette: `match method,url overrides the cassette's method,host,path,graphql`.
    public func overrides(of stored: ReplayRules) -> [String] {
        var lines: [String] = []
        if let mine = chosen.matching, let theirs = stored.matching, mine.spelled != theirs.spelled {
            lines.append("match \(mine.spelled) overrides the cassette's \(theirs.spelled)")
        }
        if let mine = chosen.allowPlaybackRepeats, let theirs = stored.allowPlaybackRepeats, mine != theirs {
            lines.append("\(mine ? "repeats" : "no repeats") overrides the cassette's \(theirs ? "repeats" : "no repeats")")
        }
        if let mine = chosen.pacing, let theirs = stored.pacing, mine != theirs {
            lines.append("pacing \(mine.scale ?? 0) overrides the cassette's \(theirs.scale ?? 0)")
        }
        if let mine = chosen.replayTime, let theirs = stored.replayTime, mine != theirs {
            lines.append("clock \(mine.rawValue) overrides the cassette's \(theirs.rawValue)")
        }
        return lines
    }

    /// What a recording stores: `stored` with every rule set here over it. Match rules that hold a
    /// ``MatchRule/custom(_:_:)`` closure cannot be written down: `stored`'s are kept, and the note says so.
    public func rulesToStore(over stored: ReplayRules) -> (rules: ReplayRules, notes: [String]) {
        var rules = stored
        var notes: [String] = []
        if let matching = chosen.matching {
            if let custom = matching.first(where: { !$0.isStorable }) {
                notes.append("match rules not stored in the cassette: \(custom) is a closure, which cannot be written down; "
                             + "replays must set the same rules in code")
            } else {
                rules.matching = matching.spelled == MatchRule.defaults.spelled && stored.matching == nil ? nil : matching
            }
        }
        if let repeats = chosen.allowPlaybackRepeats { rules.allowPlaybackRepeats = repeats || stored.allowPlaybackRepeats != nil ? repeats : nil }
        if let pacing = chosen.pacing { rules.pacing = pacing != .instant || stored.pacing != nil ? pacing : nil }
        if let clock = chosen.replayTime { rules.replayTime = clock != .recorded || stored.replayTime != nil ? clock : nil }
        return (rules, notes)
    }
}
