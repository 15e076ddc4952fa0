import CCurl
import Foundation
import TapedeckCore

/// The live transport: real HTTP/1.1 and HTTP/2 (over TLS) through libcurl's multi interface, driven by one
/// event-loop thread, so many requests run at once and connections are reused.
///
/// Bodies stream in both directions: a file upload is read as it is sent and a download to a file is written as it
/// arrives, so memory stays flat at any size. Failures are `URLError`s with the code Foundation would use (see
/// ``CurlErrorMapping``), the failing URL, and curl's own code and message in `userInfo`.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/get")!))
/// print(response.statusCode, response.metrics.connectionReused)
/// ```
///
/// Copies share one event loop; it stops when the last copy is gone or on ``shutdown()``.
public struct CurlTransport: HTTPTransport {
    /// Settings shared by every request of a transport.
    public struct Configuration: Sendable {
        /// `HOST:PORT:ADDRESS` entries that pin host names to addresses (`CURLOPT_RESOLVE`).
        public var resolve: [String]
        /// `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT` entries that send a host's traffic elsewhere while the
        /// request keeps its URL, `Host` header and TLS name (`CURLOPT_CONNECT_TO`).
        public var connectTo: [String]
        /// Anchors trusted by every HTTPS request, in addition to each request's own.
        public var trustedCertificates: [TLSSettings.Certificate]
        /// Ask for compressed responses and decode them, as `URLSession` does. Default `true`.
        public var automaticDecompression: Bool
        /// Most connections open to one host at once, or `nil` for no limit.
        public var maximumConnectionsPerHost: Int?
        /// Idle connections kept for reuse.
        public var connectionCacheSize: Int
        /// libcurl's receive buffer in bytes (`CURLOPT_BUFFERSIZE`).
        public var receiveBufferSize: Int
        /// libcurl's upload buffer in bytes (`CURLOPT_UPLOAD_BUFFERSIZE`).
        public var sendBufferSize: Int
        /// The forward proxy every request goes through (`CURLOPT_PROXY`), e.g. `http://127.0.0.1:8888`: an `https`
        /// request then opens a `CONNECT` tunnel through it. `""` connects directly whatever the environment says;
        /// `nil` (the default) leaves libcurl to read `http_proxy`, `HTTPS_PROXY`, `NO_PROXY` and friends.
        /// A proxy that intercepts HTTPS (TapedeckStubServer's `ForwardProxy`) presents certificates of its own
        /// CA: add it to ``trustedCertificates``.
        ///
        /// ```swift
        /// let transport = CurlTransport(configuration: .init(trustedCertificates: [.pem(caPEM)], proxy: proxy.proxyURL.absoluteString))
        /// ```
        public var proxy: String?

        /// Creates a configuration.
        public init(
            resolve: [String] = [],
            connectTo: [String] = [],
            trustedCertificates: [TLSSettings.Certificate] = [],
            automaticDecompression: Bool = true,
            maximumConnectionsPerHost: Int? = nil,
            connectionCacheSize: Int = 64,
            receiveBufferSize: Int = 128 * 1024,
            sendBufferSize: Int = 128 * 1024,
            proxy: String? = nil
        ) {
            self.proxy = proxy
            self.resolve = resolve
            self.connectTo = connectTo
            self.trustedCertificates = trustedCertificates
            self.automaticDecompression = automaticDecompression
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.connectionCacheSize = connectionCacheSize
            self.receiveBufferSize = receiveBufferSize
            self.sendBufferSize = sendBufferSize
        }
    }

    /// Owns the loop; when the last transport copy releases it, the loop shuts down and its thread ends before the
    /// release returns (so a process that exits right after has no thread still tearing down TLS state).
    private final class Engine: Sendable {
        let loop: CurlEventLoop
        init(configuration: Configuration) { loop = CurlEventLoop(configuration: configuration) }
        deinit { loop.shutdown() }
    }

    private let engine: Engine
    /// The settings this transport was made with.
    public let configuration: Configuration

    /// Creates a transport with its own event loop and connection pool.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.engine = Engine(configuration: configuration)
    }

    /// Runs `request` to completion; see `HTTPTransport/send(_:onEvent:)`.
    ///
    /// No stream and no task is made: the event loop resumes the caller once, with the response or the error, and
    /// calls `onEvent` on its own thread. `completed` reaches `onEvent` right after the caller has been scheduled to
    /// resume, so work done there overlaps the caller's wake-up; this returns once `onEvent` has returned.
    /// Cancelling the calling task cancels the transfer.
    public func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        try await send(request, onEvent: onEvent, window: nil)
    }

    /// Sends `request` as ``send(_:onEvent:)`` does, reading a streamed body no faster than `window` lets through.
    package func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?, window: ReceiveWindow?) async throws -> HTTPResponse {
        let engine = self.engine
        let id = engine.loop.makeID()
        var handOff: CompletionHandOff?
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let sink = TransferSink(continuation, handler: onEvent, window: window)
                handOff = sink.handOff
                engine.loop.send(.start(id: id, request: request, sink: sink))
            }
        } onCancel: {
            engine.loop.send(.cancel(id: id))
        }
        await handOff?.waitUntilDone()
        return response
    }

    /// The transport's event-loop thread as a task executor.
    ///
    /// A task that prefers it runs its code on the loop thread, between libcurl turns, so each request is started
    /// and its caller resumed without a hop between threads: sequential requests then cost about what they cost in
    /// a single-threaded curl program. Keep such code short and non-blocking, as on any event loop: while it runs,
    /// no transfer of this transport moves. After ``shutdown()`` the jobs of such tasks run on a global queue.
    ///
    /// ```swift
    /// let transport = CurlTransport()
    /// try await withTaskExecutorPreference(transport.executor) {
    ///     for url in urls {
    ///         let response = try await transport.send(HTTPRequest(url: url))
    ///         print(url, response.statusCode)
    ///     }
    /// }
    /// ```
    public var executor: any TaskExecutor { engine.loop }

    /// ``executor``: the client stack runs its transfers there (see `TapedeckCore/HTTPTransport/preferredExecutor`).
    public var preferredExecutor: (any TaskExecutor)? { engine.loop }

    /// Whether the caller runs on this transport's event-loop thread (tests of ``executor``).
    var isOnEventLoop: Bool { engine.loop.isLoopThread }

    /// Stops the event loop now: running transfers fail with `URLError.cancelled` and later ones are refused.
    public func shutdown() {
        engine.loop.shutdown()
    }

    /// The libcurl version in use, e.g. `"7.88.1"`.
    public static var libcurlVersion: String {
        String(cString: tdk_version_info().pointee.version)
    }

    /// Problems found before libcurl sees the request.
    static func preflightError(for request: HTTPRequest) -> URLError? {
        guard let scheme = request.url.scheme?.lowercased() else {
            return URLError(.badURL, failingURL: request.url, reason: "the URL has no scheme: \(request.url)")
        }
        guard scheme == "http" || scheme == "https" else {
            return URLError(.unsupportedURL, failingURL: request.url,
                            reason: "unsupported URL scheme \"\(scheme)\": only http and https are supported")
        }
        if case .file(let fileURL) = request.body, !FileManager.default.fileExists(atPath: fileURL.path) {
            return URLError(.fileDoesNotExist, failingURL: request.url, reason: "the upload file \(fileURL.path) does not exist")
        }
        return nil
    }
}
