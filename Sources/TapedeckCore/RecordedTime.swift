import Foundation

/// The time a replay runs on. While a session sends a request over a transport whose answers were recorded (a
/// replaying cassette, ``HTTPTransport/recordedTime``), ``clock`` is that recording's clock, and every
/// ``SystemWallClock`` in the task (the HTTP cache's, the cookie store's, a retry policy's, an authentication
/// interceptor's) reads it: freshness, cookie expiry, `Retry-After` dates and token lifetimes are judged as they were
/// when the cassette was recorded, so a replay is the same on any day. Sleeping still takes real time. A clock given
/// explicitly (`ManualWallClock`, `InstantWallClock`) is never replaced.
///
/// A transport that wraps a replaying one without forwarding ``HTTPTransport/recordedTime`` (a logging or metrics
/// wrapper) hides the recording's clock from the session, so the replaying transport also announces it
/// (``announce(_:)``) to the ``Listener`` the session installs for each request: from the first replayed answer on,
/// the session's ``SystemWallClock``s read the recording's time (``current``) as if the wrapper had forwarded it.
///
/// ```swift
/// let replay = try CassetteTransport(cassette: url, mode: .replay)
/// try await RecordedTime.$clock.withValue(replay.recordedTime) {
///     // every SystemWallClock here reads the recording's time
/// }
/// ```
public enum RecordedTime {
    /// The recording's clock of the replay running in this task, or `nil` outside one.
    @TaskLocal public static var clock: (any WallClock)?

    /// Where a replaying transport announces its clock in this task (installed by the session), or `nil`.
    @TaskLocal public static var listener: Listener?

    /// The recording's time in force in this task: ``clock`` when one is set, else the clock announced to the
    /// ``listener``, else `nil` (the system's time).
    public static var current: (any WallClock)? { clock ?? listener?.clock }

    /// Runs `body` on `transport`'s recorded time when it has one (and on the time already in force otherwise).
    public static func run<T>(over transport: any HTTPTransport, _ body: () async throws -> T) async rethrows -> T {
        guard let recorded = transport.recordedTime else { return try await body() }
        return try await $clock.withValue(recorded) { try await body() }
    }

    /// Tells the ``listener`` of this task, if any, that the answer being given belongs to `clock`'s time: what a
    /// replaying transport does for every answer it replays on the recording's clock. A wrapper that sends through it
    /// in the same task, or in a child or unstructured task made there, carries the announcement without knowing.
    public static func announce(_ clock: any WallClock) {
        listener?.hear(clock)
    }

    /// The recording's clock as a replaying transport announced it (``announce(_:)``), kept for as long as the
    /// session that installed it: one per session, shared by the requests it sends, so that a cached answer is
    /// judged on the recording's time when it is looked up, before the transport is asked anything. The last clock
    /// announced is the one in force.
    public final class Listener: Sendable {
        private let heard = Locked<(any WallClock)?>(nil)

        /// A listener that has heard nothing yet.
        public init() {}

        /// The clock announced last, or `nil` before any.
        public var clock: (any WallClock)? { heard.withLock { $0 } }

        /// Keeps `clock` as the one in force.
        public func hear(_ clock: any WallClock) {
            heard.withLock { $0 = clock }
        }
    }
}
