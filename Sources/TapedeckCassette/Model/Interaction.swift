import Foundation

/// One recorded exchange: a request and what came of it (a response or a transport error), with its timing,
/// the server's certificate chain for HTTPS, and when it was recorded.
///
/// ```swift
/// let interaction = Interaction(
///     request: .init(method: "GET", url: "http://127.0.0.1:8080/get"),
///     outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/plain"], body: CassetteBody(Data("hi".utf8)))))
/// ```
public struct Interaction: Hashable, Sendable {
    /// A recorded request.
    public struct Request: Hashable, Sendable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The absolute URL as it was sent.
        public var url: String
        /// The header fields in the order they were sent.
        public var headers: HTTPHeaders
        /// The body.
        public var body: CassetteBody

        /// Creates a recorded request.
        public init(method: String, url: String, headers: HTTPHeaders = [:], body: CassetteBody = .empty) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        /// The request as the replay engine sees a live one: method, URL, headers and in-memory body bytes.
        public init(_ request: HTTPRequest, body: Data = Data()) {
            self.init(method: request.method.rawValue, url: request.url.absoluteString, headers: request.headers,
                      body: CassetteBody(body))
        }

        /// `METHOD URL`, for messages.
        public var summary: String { "\(method) \(url)" }
    }

    /// A recorded response.
    public struct Response: Hashable, Sendable {
        /// The status code.
        public var statusCode: Int
        /// The reason phrase (empty over HTTP/2).
        public var reasonPhrase: String
        /// The protocol version, e.g. `HTTP/1.1`.
        public var httpVersion: String
        /// The URL that answered, when redirects led away from the request's URL.
        public var url: String?
        /// The header fields in the order they arrived.
        public var headers: HTTPHeaders
        /// The body.
        public var body: CassetteBody
        /// Whether header values and an inline UTF-8 body are `TextTemplate`s filled from each live request at
        /// replay (`{{request.header.X-Request-Id}}`, `{{now}}`, …), in process and when a stub server serves the
        /// cassette. Set by hand in the file (`"templated": true`); recordings are never templated.
        public var isTemplated: Bool
        /// How the body arrived: its chunks and their times after the response head, recorded for
        /// `text/event-stream` responses (and others as ``CassetteConfiguration/chunkTiming`` says).
        /// Replay delivers the same chunks, at the same times with ``ReplayTiming/recorded(scale:)``. `nil` when
        /// not recorded: the body replays in 64 KiB chunks.
        public var chunks: [TimedChunk]?
        /// The error that cut a streamed body short after ``body`` arrived (a read timeout between server-sent
        /// events, a dropped connection): replay delivers the body, then throws it. `nil` for a body that completed.
        public var interruption: Failure?

        /// Creates a recorded response.
        public init(statusCode: Int, reasonPhrase: String = "", httpVersion: String = "HTTP/1.1", url: String? = nil,
                    headers: HTTPHeaders = [:], body: CassetteBody = .empty, isTemplated: Bool = false,
                    chunks: [TimedChunk]? = nil, interruption: Failure? = nil) {
            self.statusCode = statusCode
            self.reasonPhrase = reasonPhrase
            self.httpVersion = httpVersion
            self.url = url
            self.headers = headers
            self.body = body
            self.isTemplated = isTemplated
            self.chunks = chunks
            self.interruption = interruption
        }
    }

    /// A recorded transport failure, replayed as the same `URLError`.
    public struct Failure: Hashable, Sendable {
        /// The `URLError.Code` raw value (NSURLErrorDomain), e.g. `-1001` for `timedOut`.
        public var code: Int
        /// The error's description.
        public var message: String
        /// The transport's own code (for CurlTransport, the `CURLcode`).
        public var transportCode: Int?
        /// The transport's own message.
        public var transportMessage: String?

        /// Creates a failure.
        public init(code: Int, message: String, transportCode: Int? = nil, transportMessage: String? = nil) {
            self.code = code
            self.message = message
            self.transportCode = transportCode
            self.transportMessage = transportMessage
        }

        /// Captures a `URLError`.
        public init(_ error: URLError) {
            self.init(code: error.code.rawValue, message: error.userInfo[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription,
                      transportCode: error.transportCode, transportMessage: error.transportMessage)
        }

        /// The `URLError` to throw on replay, naming `url` as the failing URL.
        public func urlError(failingURL url: URL?) -> URLError {
            URLError(URLError.Code(rawValue: code) ?? .unknown, failingURL: url, reason: message,
                     transportCode: transportCode, transportMessage: transportMessage)
        }
    }

    /// What came of the request.
    public enum Outcome: Hashable, Sendable {
        /// The server answered.
        case response(Response)
        /// The transfer failed.
        case failure(Failure)
    }

    /// The request.
    public var request: Request
    /// The response or the error.
    public var outcome: Outcome
    /// The recorded timings and sizes.
    public var metrics: TransferMetrics
    /// The server's certificates, leaf first, as DER (empty for plain HTTP).
    public var peerCertificates: [Data]
    /// When it was recorded, to the millisecond.
    public var recordedAt: Date
    /// The frames of the WebSocket connection the request upgraded to (the request is the upgrade, the response
    /// its `101`), or `nil` for plain HTTP. A cassette holding one is written as format version 2.
    public var webSocket: WebSocketTranscript?

    /// Creates an interaction.
    public init(request: Request, outcome: Outcome, metrics: TransferMetrics = TransferMetrics(),
                peerCertificates: [Data] = [], recordedAt: Date = Date(timeIntervalSince1970: 0),
                webSocket: WebSocketTranscript? = nil) {
        self.request = request
        self.outcome = outcome
        self.metrics = metrics
        self.peerCertificates = peerCertificates
        self.recordedAt = recordedAt
        self.webSocket = webSocket
    }

    /// The response, when the request got one.
    public var response: Response? {
        if case .response(let response) = outcome { return response }
        return nil
    }

    /// The failure, when the request failed.
    public var failure: Failure? {
        if case .failure(let failure) = outcome { return failure }
        return nil
    }

    /// The recorded seconds before the answer began: the time to first byte of a response, or how long a recorded
    /// failure took to fail (what timed replays wait before the head).
    package var secondsBeforeHead: TimeInterval { response == nil ? metrics.total : metrics.timeToFirstByte }
}
