import TapedeckCassette

/// `tapedeck migrate`: a cassette made readable by an older Tapedeck (Cassettes/FORMAT.md, "Which release reads and
/// writes which version"). A writer already writes the lowest version a cassette's content needs, so migrating means
/// leaving out what the target version cannot hold, each thing named, or refusing when the version cannot hold the
/// cassette at all.
///
/// ```swift
/// let migrated = try CassetteMigration.migrate(cassette, to: 2)
/// for line in migrated.leftOut { print("left out \(line)") }   // left out the stored replay rules (match method,url,jsonrpc)
/// try CassetteFile.save(migrated.cassette, to: url)
/// ```
public enum CassetteMigration {
    /// A migrated cassette and what was left out of it.
    public struct Migrated: Sendable {
        /// The cassette, whose `formatVersion` is at most the version asked for.
        public var cassette: Cassette
        /// What the version cannot hold and was left out, in words.
        public var leftOut: [String]
    }

    /// Why a cassette cannot be written for a version.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        /// What is wrong, naming the version and the place.
        public var description: String
    }

    /// `cassette` as version `version` (or lower, when its content needs no more) can hold it.
    ///
    /// - Throws: ``Refusal`` for a version no release writes, or one that cannot hold a WebSocket conversation the
    ///   cassette has.
    public static func migrate(_ cassette: Cassette, to version: Int) throws(Refusal) -> Migrated {
        guard Cassette.readableVersions.contains(version) else {
            let known = Cassette.readableVersions.map(String.init).joined(separator: ", ")
            throw Refusal(description: "version \(version) is not a cassette format version (Tapedeck writes \(known))")
        }
        var migrated = Migrated(cassette: cassette, leftOut: [])
        if version < Cassette.replayRulesVersion, !cassette.replayRules.isEmpty {
            migrated.leftOut.append("the stored replay rules (\(cassette.replayRules)): version \(version) cannot hold them, "
                                    + "so replays use their defaults or the rules given to them (--match, CassetteConfiguration)")
            migrated.cassette.replayRules = ReplayRules()
        }
        if version < Cassette.webSocketVersion, let index = cassette.interactions.firstIndex(where: { $0.webSocket != nil }) {
            throw Refusal(description: "interactions[\(index)] holds a WebSocket conversation, which version \(version) cannot hold; "
                          + "the lowest version for this cassette is \(Cassette.webSocketVersion)")
        }
        return migrated
    }
}
