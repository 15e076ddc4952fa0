import CCurl
import Foundation
import TapedeckCore

/// One request in flight on the event loop: its easy handle, its body reader and writer, and the state the
/// libcurl callbacks update. Created, driven and destroyed on the event-loop thread only.
final class CurlTransfer {
    /// Why Tapedeck itself stopped a transfer (libcurl then reports `ABORTED_BY_CALLBACK` or `WRITE_ERROR`).
    enum StopReason {
        case idleTimeout
        case bodyStreamFailed(any Error)
        case bodyReadFailed(any Error)
    }

    let id: UInt64
    let request: HTTPRequest
    let sink: TransferSink
    let easy: CurlEasy
    private let headerList: CurlStringList
    private let routeList: CurlStringList
    private let connectToList: CurlStringList
    private let bodyReader: RequestBodyReader
    private let bodyWriter: ResponseBodyWriter
    private var headParser: ResponseHeadParser
    private(set) var head: HTTPResponseHead?
    private(set) var stopReason: StopReason?
    /// Paused until the stream body pump has bytes to send.
    private(set) var isPausedForBody = false
    /// Paused until the consumer's ``ReceiveWindow`` opens.
    private var isPausedForWindow = false
    /// Wakes the loop to resume this transfer (``resume()``).
    private let wake: @Sendable () -> Void
    /// Evaluates the request's trust policy during the handshake, when it has one.
    private var trustVerifier: ServerTrustVerifier?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// When bytes last moved (the idle timeout) and which progress events are due.
    private var state: StateMachine
    /// Whether libcurl decodes content codings, so body bytes differ from the announced length.
    private let decodesContent: Bool

    init(
        id: UInt64,
        request: HTTPRequest,
        configuration: CurlTransport.Configuration,
        sink: TransferSink,
        wake: @escaping @Sendable () -> Void
    ) throws {
        self.id = id
        self.request = request
        self.sink = sink
        self.decodesContent = configuration.automaticDecompression
        self.wake = wake
        guard let handle = curl_easy_init() else {
            throw URLError(.unknown, failingURL: request.url, reason: "libcurl could not create a transfer")
        }
        self.easy = CurlEasy(handle: handle)
        self.state = StateMachine(idleTimeout: UInt64(max(0.001, request.timeoutInterval) * 1_000_000_000),
                                  now: MonotonicClock.nanoseconds())
        self.headParser = ResponseHeadParser()
        self.headerList = CurlStringList(CurlTransfer.headerLines(for: request))
        self.routeList = CurlStringList(configuration.resolve)
        self.connectToList = CurlStringList(configuration.connectTo)
        errorBuffer.initialize(to: 0)
        do {
            self.bodyReader = try RequestBodyReader(body: request.body, url: request.url, onStreamReadable: wake)
            self.bodyWriter = try ResponseBodyWriter(destination: request.responseBody, url: request.url, events: sink)
            if request.reportsFileBodyChunks { bodyWriter.fileChunkEvents = sink }
            try configure(configuration)
        } catch {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            throw error
        }
    }

    deinit {
        curl_easy_cleanup(easy.handle)
        errorBuffer.deallocate()
    }

    /// The raw pointer libcurl hands back to the callbacks.
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: - Setup

    static func headerLines(for request: HTTPRequest) -> [String] {
        var lines = request.headers.map { field in
            // curl drops "Name:" with no value; "Name;" sends it empty.
            field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
        }
        // No 100-continue round trip before large bodies.
        if !request.headers.contains("Expect") { lines.append("Expect:") }
        // curl would otherwise invent a form content type for POST bodies.
        if !request.headers.contains("Content-Type") { lines.append("Content-Type:") }
        return lines
    }

    private func configure(_ configuration: CurlTransport.Configuration) throws {
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        try easy.set(CURLOPT_PRIVATE, pointer: opaque)
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_HTTPHEADER, list: headerList.pointer)
        if routeList.pointer != nil { try easy.set(CURLOPT_RESOLVE, list: routeList.pointer) }
        if connectToList.pointer != nil { try easy.set(CURLOPT_CONNECT_TO, list: connectToList.pointer) }
        if let proxy = configuration.proxy { try easy.set(CURLOPT_PROXY, proxy) }
        if configuration.automaticDecompression { try easy.set(CURLOPT_ACCEPT_ENCODING, "") }
        try easy.set(CURLOPT_BUFFERSIZE, configuration.receiveBufferSize)
        try easy.set(CURLOPT_UPLOAD_BUFFERSIZE, configuration.sendBufferSize)

        let idleMilliseconds = Int((request.timeoutInterval * 1000).rounded(.up))
        let totalMilliseconds = request.totalTimeout.map { Int(($0 * 1000).rounded(.up)) }
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, min(idleMilliseconds, totalMilliseconds ?? .max)))
        if let totalMilliseconds { try easy.set(CURLOPT_TIMEOUT_MS, max(1, totalMilliseconds)) }

        switch request.httpVersion {
        case .automatic:
            try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        case .http1_1:
            try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2:
            let isTLS = request.url.scheme?.lowercased() == "https"
            let version = isTLS ? CURL_HTTP_VERSION_2_0 : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
            try easy.set(CURLOPT_HTTP_VERSION, version)
        }

        try configureTLS(configuration)
        try configureMethodAndBody()

        try check(tdk_easy_set_write_callback(easy.handle, curlWriteCallback, opaque))
        try check(tdk_easy_set_header_callback(easy.handle, curlHeaderCallback, opaque))
        try check(tdk_easy_set_xferinfo_callback(easy.handle, curlProgressCallback, opaque))
    }

    private func configureTLS(_ configuration: CurlTransport.Configuration) throws {
        trustVerifier = try easy.configureTLS(
            for: request.url, tls: request.tls, additionalAnchors: configuration.trustedCertificates)
    }

    private func configureMethodAndBody() throws {
        let method = request.method
        let hasBody = !request.body.isEmpty
        switch method {
        case .get where !hasBody:
            try easy.set(CURLOPT_HTTPGET, true)
        case .head:
            try easy.set(CURLOPT_NOBODY, true)
        case .post:
            try easy.set(CURLOPT_POST, true)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: bodyReader.length ?? -1)
        default:
            if hasBody {
                try easy.set(CURLOPT_UPLOAD, true)
                try easy.set(CURLOPT_INFILESIZE_LARGE, offset: bodyReader.length ?? -1)
            }
            if method != .put || !hasBody {
                try easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            }
        }
        if hasBody || method == .post {
            try check(tdk_easy_set_read_callback(easy.handle, curlReadCallback, opaque))
            try check(tdk_easy_set_seek_callback(easy.handle, curlSeekCallback, opaque))
        }
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else {
            throw URLError(.unknown, failingURL: request.url,
                           reason: "libcurl refused a callback: \(String(cString: curl_easy_strerror(code)))")
        }
    }

    // MARK: - Callbacks (event-loop thread)

    fileprivate func didReceiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        touch()
        guard case .final(let status, let reason, let version, let headers)? = headParser.consume(line: bytes) else {
            return true
        }
        // libcurl follows no redirect, so the request's own URL is the one that answered.
        emitHead(HTTPResponseHead(statusCode: status, reasonPhrase: reason, version: version, headers: headers, url: request.url))
        return true
    }

    private func emitHead(_ newHead: HTTPResponseHead) {
        head = newHead
        bodyWriter.didReceiveHead(newHead)
        if request.method != .head, let length = newHead.expectedContentLength { bodyWriter.expect(length: length) }
        sink.yield(.responseHead(newHead))
    }

    /// What the write callback answers libcurl.
    fileprivate enum Receipt {
        case taken, refused, pause
    }

    fileprivate func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Receipt {
        touch()
        if let window = sink.window, window.pauses(wakingWith: wake) {
            // libcurl hands the same bytes again once the transfer is resumed.
            isPausedForWindow = true
            return .pause
        }
        guard bodyWriter.write(bytes) else { return .refused }
        if sink.wantsEvents { emitDownloadProgress(afterWrite: true) }
        return .taken
    }

    /// Download progress as body bytes arrive, so each event says when its bytes came (libcurl's own counter, which
    /// the progress callback sees, lags one read behind). The first bytes after a pause of 10 ms go out at once;
    /// within a burst, at most one event per 10 ms, and bytes held back by that limit go out from the progress
    /// callback, which libcurl calls even when the transfer is idle.
    private func emitDownloadProgress(afterWrite: Bool = false) {
        let received = bodyWriter.byteCount
        guard head != nil,
              state.downloadProgressDue(received: received, afterWrite: afterWrite, at: MonotonicClock.nanoseconds()) else { return }
        sink.yield(.downloadProgress(TransferProgress(completed: received, total: expectedBodyLength)))
    }

    /// The body's length as the head announced it, when the bytes delivered are the bytes announced (no content
    /// coding that libcurl decodes on the way).
    private var expectedBodyLength: Int64? {
        guard let head, let length = head.expectedContentLength else { return nil }
        if decodesContent, let coding = head.headers["Content-Encoding"], coding.lowercased() != "identity" { return nil }
        return length
    }

    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch bodyReader.read(into: buffer) {
        case .bytes(let count):
            if count > 0 { touch() }
            return count
        case .wouldBlock:
            isPausedForBody = true
            return tdk_readfunc_pause()
        case .failed(let error):
            stopReason = request.body.isStream ? .bodyStreamFailed(error) : .bodyReadFailed(error)
            return tdk_readfunc_abort()
        }
    }

    fileprivate func seekBody(to offset: Int64) -> Int32 {
        bodyReader.rewind(to: offset) ? tdk_seekfunc_ok() : tdk_seekfunc_cantseek()
    }

    fileprivate func progress(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) -> Int32 {
        if stopReason != nil { return 1 }
        guard sink.wantsEvents else { return 0 }
        // Bytes held back by the 10 ms limit go out now that time has passed (libcurl calls this even when idle).
        emitDownloadProgress()
        guard state.progressTurnDue(at: MonotonicClock.nanoseconds()),
              state.uploadProgressDue(uploaded: uploaded, total: uploadTotal) else { return 0 }
        let total = bodyReader.length ?? (uploadTotal > 0 ? uploadTotal : nil)
        sink.yield(.uploadProgress(TransferProgress(completed: uploaded, total: total)))
        return 0
    }

    /// The last progress of each direction, so observers always see the end.
    private func emitFinalProgress(bodyByteCount: Int64) {
        let uploaded = easy.offset(CURLINFO_SIZE_UPLOAD_T)
        let due = state.finalProgressDue(uploaded: uploaded, downloaded: bodyByteCount)
        if due.upload {
            sink.yield(.uploadProgress(TransferProgress(completed: uploaded, total: bodyReader.length ?? uploaded)))
        }
        if due.download {
            sink.yield(.downloadProgress(TransferProgress(completed: bodyByteCount, total: bodyByteCount)))
        }
    }

    // MARK: - Loop hooks

    private func touch() { state.moved(at: MonotonicClock.nanoseconds()) }

    /// Whether the idle timeout has passed at `now`.
    func isIdle(at now: UInt64) -> Bool { state.isIdle(at: now) }

    /// Nanoseconds until the idle timeout would pass.
    func nanosecondsUntilIdle(at now: UInt64) -> UInt64 { state.nanosecondsUntilIdle(at: now) }

    /// Marks the transfer as stopped for idling; the loop then removes it.
    func stopForIdling() { stopReason = .idleTimeout }

    /// Whether the transfer waits for its request body's pump or its consumer's window (not idling, then).
    var isPaused: Bool { isPausedForBody || isPausedForWindow }

    /// Resumes a transfer that paused waiting for stream body bytes or for its consumer's window.
    func resume() {
        guard isPaused else { return }
        isPausedForBody = false
        isPausedForWindow = false
        touch()
        _ = curl_easy_pause(easy.handle, tdk_pause_continue())
    }

    /// Releases the body reader (closing a file or stopping a stream pump).
    func releaseBody() { bodyReader.close() }

    /// Delivers the response or the error libcurl reported.
    func complete(with code: CURLcode, certificateCache: inout [String: [Data]]) {
        releaseBody()
        if code == CURLE_OK, stopReason == nil {
            sink.yield(.completed(makeResponse(certificateCache: &certificateCache)))
        } else {
            sink.finish(throwing: error(for: code))
        }
    }

    private func makeResponse(certificateCache: inout [String: [Data]]) -> HTTPResponse {
        let metrics = collectMetrics()
        let finalHead = head ?? HTTPResponseHead(
            statusCode: easy.long(CURLINFO_RESPONSE_CODE), version: metrics.httpVersion, url: request.url)
        if head == nil { sink.yield(.responseHead(finalHead)) }
        let body = bodyWriter.finish()
        if sink.wantsEvents { emitFinalProgress(bodyByteCount: body.byteCount) }
        var chain: [Data] = []
        if request.url.scheme?.lowercased() == "https" {
            let endpoint = "\(metrics.remoteAddress):\(metrics.remotePort)/\(finalHead.url.host ?? "")"
            chain = easy.certificateChain()
            if chain.isEmpty, metrics.connectionReused {
                chain = certificateCache[endpoint] ?? []
            } else if !chain.isEmpty {
                certificateCache[endpoint] = chain
            }
        }
        return HTTPResponse(head: finalHead, body: body, metrics: metrics, peerCertificates: chain)
    }

    private func collectMetrics() -> TransferMetrics {
        let version: String
        switch easy.long(CURLINFO_HTTP_VERSION) {
        case CURL_HTTP_VERSION_1_0: version = "HTTP/1.0"
        case CURL_HTTP_VERSION_2_0: version = "HTTP/2"
        case CURL_HTTP_VERSION_3: version = "HTTP/3"
        default: version = "HTTP/1.1"
        }
        return TransferMetrics(
            nameLookup: easy.seconds(CURLINFO_NAMELOOKUP_TIME_T),
            connect: easy.seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: easy.seconds(CURLINFO_APPCONNECT_TIME_T),
            timeToFirstByte: easy.seconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: easy.seconds(CURLINFO_TOTAL_TIME_T),
            bytesSent: Int64(easy.long(CURLINFO_REQUEST_SIZE)) + easy.offset(CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: Int64(easy.long(CURLINFO_HEADER_SIZE)) + easy.offset(CURLINFO_SIZE_DOWNLOAD_T),
            connectionReused: easy.long(CURLINFO_NUM_CONNECTS) == 0,
            httpVersion: version,
            remoteAddress: easy.string(CURLINFO_PRIMARY_IP) ?? "",
            remotePort: easy.long(CURLINFO_PRIMARY_PORT),
            redirectCount: easy.long(CURLINFO_REDIRECT_COUNT)
        )
    }

    /// The `URLError` for a failed transfer.
    func error(for code: CURLcode) -> URLError {
        let url = request.url
        switch stopReason {
        case .idleTimeout:
            return URLError(.timedOut, failingURL: url,
                            reason: "The request timed out: no data moved for \(request.timeoutInterval) s.")
        case .bodyStreamFailed(let underlying), .bodyReadFailed(let underlying):
            var info: [String: Any] = [
                NSLocalizedDescriptionKey: "The request body could not be read: \(underlying)",
                NSURLErrorFailingURLErrorKey: url,
                NSUnderlyingErrorKey: underlying as NSError,
            ]
            info[URLError.transportCodeKey] = Int(code.rawValue)
            return URLError(.unknown, userInfo: info)
        case nil:
            break
        }
        if let rejection = trustVerifier?.rejection {
            return rejection.urlError(failingURL: url, peerCertificates: trustVerifier?.presentedChain ?? [])
        }
        let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        if code == CURLE_WRITE_ERROR, let errno = bodyWriter.writeFailure {
            return URLError(.cannotWriteToFile, failingURL: url,
                            reason: "The response body could not be written: \(String(cString: strerror(errno)))",
                            transportCode: Int(code.rawValue), transportMessage: message)
        }
        var urlCode = CurlErrorMapping.urlErrorCode(
            curlCode: Int(code.rawValue), tlsVerifyResult: easy.long(CURLINFO_SSL_VERIFYRESULT))
        if code == CURLE_UNSUPPORTED_PROTOCOL, headParser.statusCode == 0, easy.string(CURLINFO_PRIMARY_IP)?.isEmpty == false {
            // A server that answered without a status line (curl calls it HTTP/0.9): the scheme was fine.
            urlCode = .badServerResponse
        }
        return URLError(urlCode, failingURL: url, reason: message, transportCode: Int(code.rawValue), transportMessage: message)
    }
}

extension HTTPRequestBody {
    var isStream: Bool {
        if case .stream = self { return true }
        return false
    }
}

// MARK: - C callbacks

private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
}

private let curlWriteCallback: tdk_data_callback = { buffer, size, count, userdata in
    let length = size * count
    switch transfer(userdata).didReceiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) {
    case .taken: return length
    case .refused: return 0
    case .pause: return tdk_writefunc_pause()
    }
}

private let curlHeaderCallback: tdk_data_callback = { buffer, size, count, userdata in
    let length = size * count
    _ = transfer(userdata).didReceiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
    return length
}

private let curlReadCallback: tdk_data_callback = { buffer, size, count, userdata in
    transfer(userdata).readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private let curlSeekCallback: tdk_seek_callback = { userdata, offset, origin in
    guard origin == SEEK_SET else { return tdk_seekfunc_cantseek() }
    return transfer(userdata).seekBody(to: Int64(offset))
}

private let curlProgressCallback: tdk_xferinfo_callback = { userdata, downloadTotal, downloaded, uploadTotal, uploaded in
    transfer(userdata).progress(
        downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
        uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
}
