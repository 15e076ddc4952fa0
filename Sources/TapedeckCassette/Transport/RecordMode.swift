/// What a ``CassetteTransport`` does with the network. The environment variable `TAPEDECK_RECORD_MODE` (one of the
/// raw values; `new_episodes` and `none` are accepted too) overrides the mode given in code.
///
/// ```sh
/// TAPEDECK_RECORD_MODE=newEpisodes swift test --filter LoginTests
/// ```
public enum RecordMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Replay only; never touch the network. A missing cassette or an unmatched request is an error. The CI default.
    case replay
    /// Replay if the cassette exists, else record every request into a new one.
    case once
    /// Replay what matches; record what does not, adding it to the cassette.
    case newEpisodes
    /// Send everything upstream and re-record the cassette from scratch.
    case all
    /// Send everything upstream and record nothing; the cassette is not read or written.
    case passthrough
    /// Replay what matches; send what does not upstream, live, without recording it (Hoverfly's spy). The
    /// transport's summary lists what went live. For suites only partly covered by cassettes.
    case spy

    /// The environment variable that overrides the mode.
    public static let environmentVariable = "TAPEDECK_RECORD_MODE"

    /// How messages and reports print it.
    public var description: String { rawValue }

    /// Parses a mode name as `TAPEDECK_RECORD_MODE` spells it (case-insensitive; `new_episodes`, `none` accepted).
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "-", with: "") {
        case "replay", "none": self = .replay
        case "once": self = .once
        case "newepisodes": self = .newEpisodes
        case "all", "record": self = .all
        case "passthrough", "off": self = .passthrough
        case "spy": self = .spy
        default: return nil
        }
    }

    /// The mode in effect: `TAPEDECK_RECORD_MODE` from `environment` when set, else `requested`.
    public static func effective(_ requested: RecordMode, environment: [String: String]) throws(CassetteError) -> RecordMode {
        guard let value = environment[environmentVariable], !value.isEmpty else { return requested }
        guard let mode = RecordMode(name: value) else { throw CassetteError.invalidRecordMode(value) }
        return mode
    }
}
