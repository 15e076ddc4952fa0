import Foundation
import TapedeckCassette
import TapedeckCore

extension StubServer {
    /// Starts a server that answers from a cassette: one cassette, two replay paths (in process with
    /// `CassetteTransport`, or over real sockets for any client, in any language). See ``serve(cassette:configuration:origin:)``.
    ///
    /// ```swift
    /// let server = try StubServer(cassette: URL(fileURLWithPath: "Cassettes/login.json"))
    /// let response = try await CurlTransport().send(HTTPRequest(url: server.url("/v1/me")))
    /// ```
    public convenience init(
        cassette: URL, cassetteConfiguration: CassetteConfiguration = CassetteConfiguration(), origin: URL? = nil,
        configuration: Configuration = Configuration()
    ) throws {
        try self.init(configuration: configuration)
        try serve(cassette: cassette, configuration: cassetteConfiguration, origin: origin)
    }

    /// Answers the requests no stub matches from the cassette at `cassette`, with exactly the in-process
    /// replayer's semantics: the same `CassettePlayer` finds the interaction (the configuration's matching rules,
    /// the live request redacted first, identical requests in recorded order, `CassetteConfiguration/allowPlaybackRepeats`),
    /// and `CassetteConfiguration/timing` and `CassetteConfiguration/faults` apply as they do in process.
    ///
    /// A request is matched as if sent to the origin it was recorded for: the recorded origin its `Host` header
    /// names (so a client routed here with ``transport(configuration:)`` keeps its production URLs), else
    /// `origin`, else the cassette's first recorded origin. Headers the client's transport adds for the connection
    /// (`Host`, `Content-Length`, `Expect`, hop-by-hop) are left out before matching.
    ///
    /// The answer is the recorded status, headers and body (a gzip body the recorder stored decoded is encoded
    /// again, a chunked one is sent chunked, a sidecar body is sent from its file). A recorded transport error is
    /// reproduced at the socket so the client sees the same `URLError`, where a listening server can; a
    /// connection or name-resolution failure cannot be, and gets a `502` with an `X-Tapedeck-Recorded-Error`
    /// header naming it. A request the cassette lacks gets a `404` (with `X-Tapedeck-Unmatched: 1`) whose body is
    /// the cassette's near-miss report.
    ///
    /// An interaction holding a WebSocket conversation (format version 2) answers an upgrade request with `101` and
    /// then plays the conversation as `webSockets` says: the server's recorded frames once the client's recorded
    /// frames before them arrived, matched in order (``WebSocketServing``). A client message that matches nothing
    /// closes with ``WebSocketServing/mismatchCloseCode`` and is reported in ``CassetteServingSummary/webSocketReports``;
    /// an unmasked, oversized or non-UTF-8 client frame closes with 1002, 1009 or 1007.
    ///
    /// Serving replaces any cassette served before and finishes a recording proxy.
    ///
    /// ```swift
    /// let server = try StubServer()
    /// try server.serve(cassette: URL(fileURLWithPath: "Cassettes/login.json"))
    /// // … run the client under test against server.baseURL …
    /// let summary = try server.finishCassette(requireAllPlayed: true)
    /// ```
    /// - Throws: `CassetteError` when the file does not exist or is not a valid cassette (naming where).
    public func serve(cassette: URL, configuration: CassetteConfiguration = CassetteConfiguration(), origin: URL? = nil) throws(CassetteError) {
        try serve(cassette: cassette, configuration: configuration, origin: origin, webSockets: WebSocketServing())
    }

    /// Serves a cassette as ``serve(cassette:configuration:origin:)`` does, playing its WebSocket conversations as
    /// `webSockets` says.
    ///
    /// ```swift
    /// try server.serve(cassette: url, webSockets: WebSocketServing(matching: .json, pacing: .recorded(scale: 1)))
    /// ```
    public func serve(cassette: URL, configuration: CassetteConfiguration = CassetteConfiguration(), origin: URL? = nil,
                      webSockets: WebSocketServing) throws(CassetteError) {
        let served = try ServedCassette(url: cassette, configuration: configuration, origin: origin, webSockets: webSockets)
        core.fallback.install(.cassette(served))
    }

    /// What the served cassette has played so far, or `nil` when no cassette is served.
    public func cassetteSummary() -> CassetteServingSummary? {
        if case .cassette(let served) = core.fallback.value { return served.summary }
        return nil
    }

    /// Stops serving the cassette (unmatched requests then get the stubs' 404) and reports what it played.
    ///
    /// - Parameter requireAllPlayed: throw `CassetteError/unplayedInteractions(file:requests:)` when some
    ///   recorded interactions were never played.
    /// - Returns: the summary, or `nil` when no cassette was served.
    @discardableResult
    public func finishCassette(requireAllPlayed: Bool = false) throws(CassetteError) -> CassetteServingSummary? {
        guard case .cassette(let served) = core.fallback.value else { return nil }
        _ = core.fallback.remove()
        let summary = served.summary
        if requireAllPlayed && !summary.unplayed.isEmpty {
            throw CassetteError.unplayedInteractions(file: summary.file, requests: summary.unplayed)
        }
        return summary
    }
}
