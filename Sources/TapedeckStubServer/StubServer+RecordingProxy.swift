import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl

extension StubServer {
    /// Why a recording proxy could not start.
    public enum RecordingProxyError: Error, Sendable, CustomStringConvertible {
        /// The upstream base URL is not usable; the text says why.
        case invalidUpstream(String)

        /// How messages and reports print it.
        public var description: String {
            switch self {
            case .invalidUpstream(let reason): return "the recording proxy's upstream is not usable: \(reason)"
            }
        }
    }

    /// Forwards every request no stub answers to `upstream` and records each exchange into `cassette`: the engine
    /// of `tapedeck record --upstream URL --cassette FILE`.
    ///
    /// The request (method, path and query appended to `upstream`, headers minus `Host` and hop-by-hop ones, body)
    /// goes upstream through a recording `CassetteTransport` over `CurlTransport` (redirects not followed, bodies
    /// passed through as encoded); the response goes back to the client as it arrives (status and headers minus
    /// hop-by-hop ones as soon as the upstream's head is in, then the body chunk by chunk, so an event stream keeps its
    /// live pace), and its end waits until the exchange is recorded. Redaction (`CassetteConfiguration/redaction`), the
    /// recorder lock, the journal that puts each interaction on disk, and atomic saving all come from the cassette
    /// module.
    /// An upstream transport error is recorded and reproduced to the client at the socket as
    /// ``serve(cassette:configuration:origin:)`` would replay it.
    ///
    /// In `RecordMode/newEpisodes` requests the cassette already answers are replayed and not forwarded;
    /// `RecordMode/all` re-records from scratch. The installed proxy replaces a served cassette.
    ///
    /// ```swift
    /// let proxy = try StubServer()
    /// try proxy.recordProxy(upstream: URL(string: "https://api.example.com")!,
    ///                       cassette: URL(fileURLWithPath: "Cassettes/api.json"), mode: .newEpisodes)
    /// // … point any client at proxy.baseURL …
    /// print(proxy.recordedInteractionCount)
    /// let summary = try await proxy.finishRecording()
    /// proxy.stop()
    /// ```
    /// - Parameters:
    ///   - upstream: an `http` or `https` base URL with no query; request targets are appended to it.
    ///   - cassette: the cassette file to record into (created when absent).
    ///   - mode: how the cassette is recorded: `RecordMode/newEpisodes` by default.
    ///   - configuration: the cassette's matching and redaction.
    ///   - timeout: seconds an upstream exchange may stay idle (`HTTPRequest/timeoutInterval`).
    ///   - upstreamConfiguration: the `CurlTransport` settings (trust anchors, connect-to routes, …). Unless it names a
    ///     `proxy`, none from the environment (`http_proxy`, …) is used, so the proxy never forwards to itself.
    /// - Throws: ``RecordingProxyError`` for an unusable upstream; `CassetteError` when the cassette cannot be
    ///   opened (locked by another recorder, not a valid cassette, …).
    public func recordProxy(
        upstream: URL, cassette: URL, mode: RecordMode = .newEpisodes,
        configuration: CassetteConfiguration = CassetteConfiguration(),
        upstreamConfiguration: CurlTransport.Configuration = CurlTransport.Configuration(), timeout: TimeInterval = 60
    ) throws {
        let proxy = try RecordingProxy(upstream: upstream, cassette: cassette, mode: mode, configuration: configuration,
                                       upstreamConfiguration: upstreamConfiguration, timeout: timeout)
        core.fallback.install(.proxy(proxy))
    }

    /// Interactions the recording proxy has forwarded and put in its cassette so far (0 without a proxy).
    public var recordedInteractionCount: Int {
        if case .proxy(let proxy) = core.fallback.value { return proxy.recordedCount }
        return 0
    }

    /// Stops the recording proxy cleanly: new requests get a `503`, exchanges under way are waited for (at most
    /// `timeout`) and recorded, and the cassette is saved. ``stop()`` also saves it, without waiting.
    ///
    /// ```swift
    /// let summary = try await server.finishRecording()
    /// print("\(summary.interactionCount) interactions in \(summary.file)")
    /// ```
    /// - Returns: the cassette's summary, or `nil` when no proxy was recording.
    @discardableResult
    public func finishRecording(timeout: Duration = .seconds(30)) async throws(CassetteError) -> CassetteSummary? {
        guard case .proxy(let proxy) = core.fallback.value else { return nil }
        let summary = try await proxy.finish(waitingAtMost: timeout)
        if case .proxy(let current) = core.fallback.value, current === proxy { _ = core.fallback.remove() }
        return summary
    }
}
