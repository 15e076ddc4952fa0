import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl

/// The recording proxy behind a stub server's unmatched-request path (and a ``ForwardProxy``'s): each request goes
/// through a recording `CassetteTransport` whose upstream is a `CurlTransport`, so redaction, the order of
/// recordings, atomic saving and the recorder lock all come from the cassette module.
final class RecordingProxy: Sendable {
    private struct State {
        var recorded = 0
        var inFlight = 0
        var closing = false
        var summary: CassetteSummary?
        /// WebSocket connections being relayed (and some that ended since the last one started).
        var relays: [WebSocketRelay] = []
    }

    /// The base URL request targets are appended to; `nil` for a forward proxy, which names each request's URL.
    let upstream: URL?
    let cassette: CassetteTransport
    let timeout: TimeInterval
    /// The upstream's libcurl settings, which WebSocket connections (relayed over a libcurl stream) use too.
    let upstreamConfiguration: CurlTransport.Configuration
    /// Where exchanges run: the upstream's curl event loop (a `TaskExecutor`), not the global pool, so the proxy
    /// answers even while the client's own threads (a test waiting synchronously on a subprocess, say) fill the pool.
    let executor: any TaskExecutor
    private let state = Locked(State())

    init(upstream: URL?, cassette url: URL, mode: RecordMode, configuration: CassetteConfiguration,
         upstreamConfiguration: CurlTransport.Configuration, timeout: TimeInterval) throws {
        if let upstream, let problem = ProxyMessage.problem(with: upstream) {
            throw StubServer.RecordingProxyError.invalidUpstream(problem)
        }
        self.upstream = upstream
        self.timeout = timeout
        self.upstreamConfiguration = Self.forwarding(upstreamConfiguration)
        let curl = CurlTransport(configuration: self.upstreamConfiguration)
        executor = curl.executor
        // What the cassette replays (new episodes) is relayed as it crossed the wire, encoded as its headers say.
        var relaying = configuration
        relaying.decodesContent = false
        cassette = try CassetteTransport(cassette: url, mode: mode, upstream: MarkingTransport(base: curl),
                                         configuration: relaying, environment: [:])
    }

    /// The settings of a proxy's own upstream transport: bodies are relayed as the upstream sent them, in the coding
    /// the client asked for with its own `Accept-Encoding` (the recorder stores a gzip body decoded and marks it), and
    /// no proxy from the environment is used, so a proxy never forwards to itself.
    static func forwarding(_ configuration: CurlTransport.Configuration) -> CurlTransport.Configuration {
        var curl = configuration
        curl.automaticDecompression = false
        if curl.proxy == nil { curl.proxy = "" }
        return curl
    }

    /// Interactions recorded (forwarded upstream and committed to the cassette) so far.
    var recordedCount: Int { state.withLock { $0.recorded } }

    /// Forwards `request` to its target appended to ``upstream``, off the daemon's threads.
    func answer(_ request: RecordedRequest) -> FallbackAnswer {
        answer(request, to: upstream.flatMap { ProxyMessage.upstreamURL(base: $0, path: request.path, query: request.query) })
    }

    /// Forwards `request` to `url` (`nil`: the target could not be made into one) off the daemon's threads.
    func answer(_ request: RecordedRequest, to url: URL?) -> FallbackAnswer {
        .later { [self] completion in
            guard admit() else {
                completion(.respond(.text("The recording proxy has finished; nothing more is forwarded.\n", status: 503)))
                return
            }
            if ServedCassette.asksForWebSocket(request.headers) {
                // Connecting upstream blocks; a thread of its own keeps the curl event loop free.
                let thread = Thread { [self] in completion(upgrade(request, to: url)) }
                thread.name = "tapedeck-proxy-upgrade"
                thread.start()
                return
            }
            Task(executorPreference: executor) { [self] in
                await forward(request, to: url, respond: RespondOnce(completion))
                settle(recorded: false)
            }
        }
    }

    /// Counts an exchange in, unless the proxy has finished.
    func admit() -> Bool {
        state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Notes a relayed WebSocket connection, which finishing the recording ends (and records).
    func remember(_ relay: WebSocketRelay) {
        state.withLock { state in
            state.relays.removeAll { $0.isFinished }
            state.relays.append(relay)
        }
    }

    /// Counts an admitted exchange out, and in among the recorded ones when `recorded`.
    func settle(recorded: Bool) {
        state.withLock { state in
            state.inFlight -= 1
            if recorded { state.recorded += 1 }
        }
    }

    /// Forwards `request` and relays the answer as it arrives: `respond` gets the answer once the upstream's head is
    /// in, and its body follows chunk by chunk (``RelayedBody``) while the recorder captures it; the exchange is
    /// written to the cassette when it ends. A failure before the head is answered as a served cassette replays it;
    /// one after the head cuts the client's connection, as the upstream's was cut.
    private func forward(_ request: RecordedRequest, to url: URL?, respond: RespondOnce) async {
        if request.bodyTruncated {
            return respond(.respond(.text("The request body (\(request.bodyLength) bytes) is larger than the server's maximumBodyInMemory, "
                + "so the recording proxy cannot forward it whole; raise StubServer.Configuration.maximumBodyInMemory.\n", status: 413)))
        }
        guard let url else {
            let base = upstream?.absoluteString ?? "the proxy's upstream"
            return respond(.respond(.text("The request target \(request.path) cannot be appended to the upstream \(base).\n", status: 400)))
        }
        var outgoing = ProxyMessage.upstreamRequest(for: request, url: url, timeout: timeout)
        outgoing.responseBody = .stream
        let flag = ForwardFlag()
        let relay = RelayedBody()
        do {
            let response = try await ForwardFlag.$current.withValue(flag) {
                try await cassette.send(outgoing) { event in
                    switch event {
                    case .responseHead(let head):
                        respond(.respond(ProxyMessage.relayedAnswer(head: head, body: relay, live: flag.isSet, method: request.method)))
                    case .bodyChunk(let chunk):
                        relay.append(chunk)
                    default:
                        break
                    }
                }
            }
            // Counted before the body ends: a client that has the whole answer finds the exchange recorded.
            if flag.isSet { state.withLock { $0.recorded += 1 } }
            relay.end(.finished)
            respond(.respond(ProxyMessage.answer(from: response)))  // only when no head came before
        } catch let error as URLError {
            if flag.isSet { state.withLock { $0.recorded += 1 } }
            relay.end(.failed)
            respond(RecordedAnswer.action(for: Interaction.Failure(error)))
        } catch {
            relay.end(.failed)
            var response = StubResponse.text("The recording proxy could not record \(request.method) \(outgoing.url.absoluteString): \(error)\n", status: 502)
            response.headers.add(name: "X-Tapedeck-Proxy-Error", value: "1")
            respond(.respond(response))
        }
    }

    /// Stops forwarding, ends the WebSocket connections it relays, waits (up to `timeout`) for exchanges under way
    /// and those connections to be recorded, and saves the cassette.
    func finish(waitingAtMost timeout: Duration) async throws(CassetteError) -> CassetteSummary {
        let relays = state.withLock { state in
            state.closing = true
            return state.relays
        }
        for relay in relays { relay.stop() }
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.inFlight > 0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try finishNow()
    }

    /// Stops forwarding and saves the cassette now; exchanges still under way are not recorded.
    func finishNow() throws(CassetteError) -> CassetteSummary {
        if let summary = state.withLock({ state -> CassetteSummary? in
            state.closing = true
            return state.summary
        }) { return summary }
        let summary = try cassette.finish()
        state.withLock { $0.summary = summary }
        return summary
    }
}

/// Hands a proxy exchange's answer to the daemon once: at the upstream's head when the body is relayed, or at the end.
final class RespondOnce: Sendable {
    private let completion: Locked<(@Sendable (StubAction) -> Void)?>

    init(_ completion: @escaping @Sendable (StubAction) -> Void) {
        self.completion = Locked(completion)
    }

    func callAsFunction(_ action: StubAction) {
        let pending = completion.withLock { value in defer { value = nil }; return value }
        pending?(action)
    }
}

/// Set when the recording transport actually sent a request upstream (rather than replaying it): the recorder
/// runs in the proxy exchange's own task, which carries the task-local flag.
final class ForwardFlag: Sendable {
    @TaskLocal static var current: ForwardFlag?
    private let value = Locked(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }
}

/// The proxy's upstream: a `CurlTransport` that marks the exchange it serves as forwarded.
struct MarkingTransport: HTTPTransport {
    let base: CurlTransport

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        ForwardFlag.current?.set()
        return try await base.send(request, onEvent: onEvent)
    }
}
