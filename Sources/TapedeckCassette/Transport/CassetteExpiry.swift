import Foundation

/// When recorded interactions are too old to trust (VCR's `re_record_interval`, Polly's `expiresIn` with its
/// `expiryStrategy`), judged per interaction from its `recordedAt`, against a clock tests can set.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.expiresAfter = CassetteExpiry(after: 30 * 86_400, strategy: .reRecord)
/// ```
public struct CassetteExpiry: Sendable {
    /// What happens when an expired interaction is about to be replayed.
    public enum Strategy: Sendable, Hashable {
        /// Replay it, and list it in ``CassetteSummary/expired`` (the test trait reports a warning).
        case warn
        /// Fail the request with ``CassetteError/expired(file:request:recordedAt:maximumAge:)``.
        case fail
        /// Send the request live and record the answer in its place, where the mode records
        /// (``RecordMode/newEpisodes``); elsewhere, as ``warn``.
        case reRecord
    }

    /// Seconds after its recording that an interaction expires.
    public var maximumAge: TimeInterval
    /// What an expired interaction leads to.
    public var strategy: Strategy
    /// The current time (injectable, so tests move it instead of waiting).
    public var now: @Sendable () -> Date

    /// Interactions expire `maximumAge` seconds after they were recorded.
    public init(after maximumAge: TimeInterval, strategy: Strategy = .warn, now: @escaping @Sendable () -> Date = { Date() }) {
        self.maximumAge = maximumAge
        self.strategy = strategy
        self.now = now
    }

    /// Whether `interaction` is past its age.
    func isExpired(_ interaction: Interaction) -> Bool {
        now().timeIntervalSince(interaction.recordedAt) > maximumAge
    }
}
