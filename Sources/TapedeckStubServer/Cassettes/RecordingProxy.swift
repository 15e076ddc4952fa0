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
        /// The HTTP exchanges under way, which finishing cuts when they do not end by themselves.
        var exchanges: [ForwardFlag] = []
    }

    /// How long finishing lets exchanges under way end by themselves before it cuts them (an event stream may never
    /// end): they are then recorded as far as they came.
    static let finishingGrace: Duration = .seconds(1)

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

    /// Starts forwarding `request`, whose body is `upload`, still arriving, to its target appended to ``upstream``.
    func streamedAnswer(_ request: RecordedRequest, upload: StreamedUpload) -> FallbackAnswer.Start? {
        streamedAnswer(request, to: upstream.flatMap { ProxyMessage.upstreamURL(base: $0, path: request.path, query: request.query) },
                       upload: upload)
    }

    /// Starts forwarding `request`, whose body is `upload`, still arriving, to `url`; `nil` for a WebSocket upgrade,
    /// which has no body to stream.
    func streamedAnswer(_ request: RecordedRequest, to url: URL?, upload: StreamedUpload) -> FallbackAnswer.Start? {
        guard !ServedCassette.asksForWebSocket(request.headers) else { return nil }
        return start(request, to: url, upload: upload)
    }

    /// Forwards `request` to `url` (`nil`: the target could not be made into one) off the daemon's threads.
    func answer(_ request: RecordedRequest, to url: URL?) -> FallbackAnswer {
        .later(start(request, to: url, upload: nil))
    }

    /// Forwarding `request` with the body `upload` streams (`nil`: its own, read whole), as the daemon starts it.
    private func start(_ request: RecordedRequest, to url: URL?, upload: StreamedUpload?) -> FallbackAnswer.Start {
        { [self] completion in
            guard admit() else {
                upload?.stopReading()
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
                await forward(request, to: url, upload: upload, respond: RespondOnce(completion))
                upload?.stopReading()
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
    ///
    /// The head goes out once the curl loop has passed on what it read with it (a job queued behind that turn), not
    /// from inside the read: a body that arrived whole by then is sent with its head when the exchange ends, as one
    /// buffer, so a small response costs the daemon one wake-up and one write, as a buffered proxy's does, and a
    /// stream's head waits no longer than the loop's turn.
    private func forward(_ request: RecordedRequest, to url: URL?, upload: StreamedUpload?, respond: RespondOnce) async {
        if upload == nil, request.bodyTruncated {
            return respond(.respond(.text("The request body (\(request.bodyLength) bytes) is larger than the server's maximumBodyInMemory, "
                + "so the recording proxy cannot forward it whole; raise StubServer.Configuration.maximumBodyInMemory.\n", status: 413)))
        }
        guard let url else {
            let base = upstream?.absoluteString ?? "the proxy's upstream"
            return respond(.respond(.text("The request target \(request.path) cannot be appended to the upstream \(base).\n", status: 400)))
        }
        var outgoing = ProxyMessage.upstreamRequest(for: request, url: url, timeout: timeout)
        if let upload { outgoing.body = .stream(upload.body()) }
        outgoing.responseBody = .stream
        let relay = RelayedBody()
        let flag = ForwardFlag(window: relay.window)
        let heldHead = Locked<HTTPResponseHead?>(nil)
        /// Answers with the head held, unless it went out already.
        let relayHead: @Sendable () -> Void = {
            guard let head = heldHead.withLock({ held in defer { held = nil }; return held }) else { return }
            if let whole = relay.takeWhole() {
                respond(.respond(ProxyMessage.wholeAnswer(head: head, body: whole, method: request.method)))
            } else {
                respond(.respond(ProxyMessage.relayedAnswer(head: head, body: relay, live: flag.isSet, method: request.method)))
            }
        }
        // A client that goes away ends the exchange, which is then recorded as far as it came.
        relay.whenAbandoned { flag.cut() }
        state.withLock { $0.exchanges.append(flag) }
        defer { state.withLock { state in state.exchanges.removeAll { $0 === flag } } }
        do {
            let response = try await ForwardFlag.$current.withValue(flag) {
                try await cassette.send(outgoing) { event in
                    switch event {
                    case .responseHead(let head):
                        heldHead.withLock { $0 = head }
                        let length = ProxyMessage.bodyLength(head: head, live: flag.isSet, method: request.method)
                        Task(executorPreference: self.executor) {
                            if !relay.hasReceived(length: length) { relayHead() }
                        }
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
            relayHead()
            respond(.respond(ProxyMessage.answer(from: response)))  // only when no head came before
        } catch let error as URLError {
            if flag.isSet { state.withLock { $0.recorded += 1 } }
            relay.end(.failed)
            relayHead()
            respond(RecordedAnswer.action(for: Interaction.Failure(error)))
        } catch {
            relay.end(.failed)
            relayHead()
            var response = StubResponse.text("The recording proxy could not record \(request.method) \(outgoing.url.absoluteString): \(error)\n", status: 502)
            response.headers.add(name: "X-Tapedeck-Proxy-Error", value: "1")
            respond(.respond(response))
        }
    }

    /// Stops forwarding, ends the WebSocket connections it relays, lets exchanges under way end by themselves for
    /// ``finishingGrace`` and cuts those still open (an event stream), waits (up to `timeout`) for all of them to be
    /// recorded, and saves the cassette.
    func finish(waitingAtMost timeout: Duration) async throws(CassetteError) -> CassetteSummary {
        let relays = state.withLock { state in
            state.closing = true
            return state.relays
        }
        for relay in relays { relay.stop() }
        let start = ContinuousClock.now
        var cut = false
        while state.withLock({ $0.inFlight > 0 }), ContinuousClock.now < start + timeout {
            if !cut, ContinuousClock.now >= start + min(Self.finishingGrace, timeout) {
                cut = true
                for exchange in state.withLock({ $0.exchanges }) { exchange.cut() }
            }
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

/// One proxy exchange as its upstream side sees it: set when the recording transport actually sent the request
/// upstream (rather than replaying it), and cut when the proxy ends an answer that the upstream would not end (an
/// event stream whose client went away, or that was still open when the proxy stopped). The recorder runs in the
/// proxy exchange's own task, which carries the task-local value.
final class ForwardFlag: Sendable {
    private struct State {
        var isSet = false
        var isCut = false
        var onCut: (@Sendable () -> Void)?
    }

    @TaskLocal static var current: ForwardFlag?
    private let state = Locked(State())
    /// The window of the body relayed to the client, which the upstream transfer reads no faster than.
    let window: ReceiveWindow?

    init(window: ReceiveWindow? = nil) {
        self.window = window
    }

    var isSet: Bool { state.withLock { $0.isSet } }
    var isCut: Bool { state.withLock { $0.isCut } }

    func set() { state.withLock { $0.isSet = true } }

    /// Ends the upstream side now: the transfer is cancelled and recorded as cut off by a read timeout, which is what
    /// a client of the replay sees after the recorded part (the stream stays open and sends nothing more).
    func cut() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.isCut = true
            defer { state.onCut = nil }
            return state.onCut
        }
        handler?()
    }

    /// Runs `handler` when the exchange is cut (at once if it was already).
    func onCut(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.isCut { return true }
            state.onCut = handler
            return false
        }
        if now { handler() }
    }
}

/// The proxy's upstream: a `CurlTransport` that marks the exchange it serves as forwarded, and that the proxy can cut
/// (``ForwardFlag/cut()``): the transfer is cancelled and the recorder sees a read timeout, so it records the body so
/// far as interrupted instead of dropping a cancelled exchange.
struct MarkingTransport: HTTPTransport {
    let base: CurlTransport

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        guard let flag = ForwardFlag.current else { return try await base.send(request, onEvent: onEvent) }
        flag.set()
        // On the curl loop, as the exchange itself: the proxy answers even while the global pool is blocked.
        let transfer = Task(executorPreference: base.executor) { try await base.send(request, onEvent: onEvent, window: flag.window) }
        flag.onCut { transfer.cancel() }
        do {
            return try await withTaskCancellationHandler { try await transfer.value } onCancel: { transfer.cancel() }
        } catch let error as URLError where error.code == .cancelled && flag.isCut {
            throw URLError(.timedOut, failingURL: request.url,
                           reason: "the recording proxy ended the stream (its client went away, or the proxy stopped)")
        }
    }
}
