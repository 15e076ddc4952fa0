import Foundation

/// The time a replay runs on. While a session sends a request over a transport whose answers were recorded (a
/// replaying cassette, ``HTTPTransport/recordedTime``), ``clock`` is that recording's clock, and every
/// ``SystemWallClock`` in the task (the HTTP cache's, the cookie store's, a retry policy's, an authentication
/// interceptor's) reads it: freshness, cookie expiry, `Retry-After` dates and token lifetimes are judged as they were
/// when the cassette was recorded, so a replay is the same on any day. Sleeping still takes real time. A clock given
/// explicitly (`ManualWallClock`, `InstantWallClock`) is never replaced.
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

    /// Runs `body` on `transport`'s recorded time when it has one (and on the time already in force otherwise).
    public static func run<T>(over transport: any HTTPTransport, _ body: () async throws -> T) async rethrows -> T {
        guard let recorded = transport.recordedTime else { return try await body() }
        return try await $clock.withValue(recorded) { try await body() }
    }
}
