import Foundation

/// When a test may expect a kept-alive connection to be reused. A server closes a connection idle past its
/// connection timeout (the stub server's default is 60 s), and libcurl reuses none idle for more than 118 s
/// (`CURLOPT_MAXAGE_CONN`'s default), so reuse is guaranteed only within that window; a starved machine (two cores
/// under a sanitizer) can overrun it between two requests. A test checks reuse only within the window: the window
/// is what the code promises, not a bound on the machine's speed.
///
/// ```swift
/// let started = ContinuousClock.now
/// _ = try await transport.send(request)
/// let second = try await transport.send(request)
/// if ConnectionReuse.isPromised(since: started) { #expect(second.metrics.connectionReused) }
/// ```
public enum ConnectionReuse {
    /// Whether a connection first used at `since` is still within both idle limits now (measured from before the
    /// first request, so the idle time is overestimated, never under).
    public static func isPromised(since: ContinuousClock.Instant, serverIdleTimeout: Duration = .seconds(60)) -> Bool {
        ContinuousClock.now - since < min(serverIdleTimeout, .seconds(118)) - .seconds(2)
    }
}
