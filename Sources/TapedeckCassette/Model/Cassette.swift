import Foundation

/// A recorded set of interactions, in the order they were recorded. The file format is described in
/// `Cassettes/FORMAT.md`: version 1, version 2 for a cassette that holds WebSocket conversations, and version 3 for
/// one that stores its replay rules (``replayRules``).
///
/// ```swift
/// let cassette = try CassetteCodec.decode(Data(contentsOf: url), file: url)
/// for interaction in cassette.interactions { print(interaction.request.summary) }
/// let bytes = CassetteCodec.encode(cassette)
/// ```
public struct Cassette: Hashable, Sendable {
    /// The format version of a cassette without WebSocket conversations: every such cassette is written as
    /// version 1, byte for byte as before version 2 existed.
    public static let currentVersion = 1
    /// The format version of a cassette with at least one ``Interaction/webSocket`` conversation.
    public static let webSocketVersion = 2
    /// The format version of a cassette that stores its ``replayRules`` (with or without WebSocket conversations): a
    /// reader that cannot apply the rules refuses the file instead of replaying it by other rules.
    public static let replayRulesVersion = 3
    /// The versions this library reads.
    public static let readableVersions: ClosedRange<Int> = 1...3

    /// The version this cassette is written as: ``replayRulesVersion`` when it stores replay rules,
    /// ``webSocketVersion`` when it holds a WebSocket conversation, ``currentVersion`` otherwise.
    public var formatVersion: Int {
        if !replayRules.isEmpty { return Self.replayRulesVersion }
        return interactions.contains { $0.webSocket != nil } ? Self.webSocketVersion : Self.currentVersion
    }

    /// The interactions, oldest first.
    public var interactions: [Interaction]
    /// The key its secrets' ``StandIn``s are made with, or `nil` for a cassette redacted with placeholders only.
    /// Recording sets one.
    public var redactionSalt: RedactionSalt?
    /// How it is replayed, as whoever recorded it chose (empty: by every replay's defaults).
    public var replayRules: ReplayRules

    /// Creates a cassette.
    public init(interactions: [Interaction] = [], redactionSalt: RedactionSalt? = nil, replayRules: ReplayRules = ReplayRules()) {
        self.interactions = interactions
        self.redactionSalt = redactionSalt
        self.replayRules = replayRules
    }
}

extension Cassette {
    /// Where the first body stored in the sidecar file `path` is in the cassette, e.g.
    /// `interactions[3].response.body`; `nil` when no body names it. Errors about a sidecar name this place.
    public func place(ofSidecar path: String) -> String? {
        SidecarRewrite.bodies(of: self).first { $0.path == path }?.place
    }
}
