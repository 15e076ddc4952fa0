import Foundation

/// A recorded set of interactions, in the order they were recorded. Version 1 of the file format is described in
/// `Cassettes/FORMAT.md`.
///
/// ```swift
/// let cassette = try CassetteCodec.decode(Data(contentsOf: url), file: url)
/// for interaction in cassette.interactions { print(interaction.request.summary) }
/// let bytes = CassetteCodec.encode(cassette)
/// ```
public struct Cassette: Hashable, Sendable {
    /// The format version this library writes.
    public static let currentVersion = 1

    /// The interactions, oldest first.
    public var interactions: [Interaction]
    /// The key its secrets' ``StandIn``s are made with, or `nil` for a cassette redacted with placeholders only.
    /// Recording sets one.
    public var redactionSalt: RedactionSalt?

    /// Creates a cassette.
    public init(interactions: [Interaction] = [], redactionSalt: RedactionSalt? = nil) {
        self.interactions = interactions
        self.redactionSalt = redactionSalt
    }
}
