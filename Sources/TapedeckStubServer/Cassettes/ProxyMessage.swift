import Foundation
import TapedeckCassette
import TapedeckCore

/// How the recording proxy turns an incoming request into the upstream one, and the upstream response into its
/// answer. Pure logic.
enum ProxyMessage {
    /// Request headers never forwarded: those of one connection, `Host` (the upstream's own is sent) and the ones
    /// the upstream transport sets from the body.
    /// `Accept-Encoding` goes as the client sent it (or not at all): the answer is relayed in the coding it chose.
    static let droppedRequestHeaders: Set<String> = RecordedAnswer.hopByHopHeaders.union(["host", "expect"])

    /// Why an upstream base URL is not usable, or `nil` when it is: `http` or `https`, a host, no query or fragment.
    static func problem(with upstream: URL) -> String? {
        guard let components = URLComponents(url: upstream, resolvingAgainstBaseURL: false) else {
            return "\(upstream.absoluteString) is not a URL"
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "\(upstream.absoluteString) must start with http:// or https://"
        }
        guard let host = components.host, !host.isEmpty else { return "\(upstream.absoluteString) has no host" }
        if components.query != nil || components.fragment != nil {
            return "\(upstream.absoluteString) must not have a query or fragment: request paths and queries are appended to it"
        }
        return nil
    }

    /// The upstream URL for a request target: the base (without a trailing `/`) + the path + `?query`.
    static func upstreamURL(base: URL, path: String, query: String?) -> URL? {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path.hasPrefix("/") ? path : "/" + path
        if let query { text += "?" + query }
        return URL(string: text)
    }

    /// The request to send upstream: same method, path + query on the upstream base, headers minus
    /// ``droppedRequestHeaders`` (and those the `Connection` header names), the body; redirects are not followed,
    /// so the client sees them.
    static func upstreamRequest(for request: RecordedRequest, base: URL, timeout: TimeInterval) -> HTTPRequest? {
        guard let url = upstreamURL(base: base, path: request.path, query: request.query) else { return nil }
        return upstreamRequest(for: request, url: url, timeout: timeout)
    }

    /// The request to send to `url`, as ``upstreamRequest(for:base:timeout:)`` builds it.
    static func upstreamRequest(for request: RecordedRequest, url: URL, timeout: TimeInterval) -> HTTPRequest {
        let headers = RecordedAnswer.forwardable(request.headers, dropping: droppedRequestHeaders)
        return HTTPRequest(method: request.method, url: url, headers: headers,
                           body: request.body.isEmpty ? .none : .data(request.body),
                           timeoutInterval: timeout, redirectPolicy: .none)
    }

    /// The headers of an upgrade to a WebSocket as it is forwarded: as ``upstreamRequest(for:url:timeout:)`` forwards
    /// them, plus `Connection: Upgrade` and `Upgrade`, and minus `Sec-WebSocket-Extensions`. The relay passes the
    /// bytes unchanged and records the frames as they pass; every extension registered so far (permessage-deflate
    /// above all) transforms the payloads, which the recording could not read, and an unknown one may. So the proxy
    /// refuses extensions in the negotiation: it offers none upstream, the client's offer goes unanswered (RFC 6455
    /// §9.1: the connection runs without them), and a `101` that accepts one anyway is not relayed
    /// (``WebSocketRelay/Opening/unofferedExtensions(_:)``).
    static func upgradeHeaders(for request: RecordedRequest) -> HTTPHeaders {
        var headers = RecordedAnswer.forwardable(request.headers, dropping: droppedRequestHeaders.union(["sec-websocket-extensions"]))
        headers.add(name: "Connection", value: "Upgrade")
        headers.add(name: "Upgrade", value: request.headers["Upgrade"] ?? "websocket")
        return headers
    }

    /// The answer the proxy starts as soon as the upstream's head is in: status and headers minus hop-by-hop ones,
    /// and `body` relayed as it arrives, with the upstream's `Content-Length` when `live` (the bytes are the upstream's
    /// own) and it gave one, chunked otherwise; either way its end waits until the exchange is recorded. A `HEAD`,
    /// `204` or `304` answer has no body to relay.
    static func relayedAnswer(head: HTTPResponseHead, body: RelayedBody, live: Bool, method: HTTPMethod) -> StubResponse {
        var answer = StubResponse(status: head.statusCode, headers: RecordedAnswer.forwardable(head.headers))
        if !hasBody(head: head, method: method) { return bodiless(answer, head: head, method: method) }
        let length = bodyLength(head: head, live: live, method: method)
        if let length { body.holdsLastByte(ofLength: length) }
        answer.relay = (body, length)
        return answer
    }

    /// The answer with `head` and its whole `body`, for a body that ended before its head went out: sent as one
    /// buffer (framed as the upstream framed it), which libmicrohttpd writes with its head in one system call.
    static func wholeAnswer(head: HTTPResponseHead, body: Data, method: HTTPMethod) -> StubResponse {
        var answer = StubResponse(status: head.statusCode, headers: RecordedAnswer.forwardable(head.headers))
        guard hasBody(head: head, method: method) else { return bodiless(answer, head: head, method: method) }
        answer.body = RecordedAnswer.framed(body, chunked: RecordedAnswer.isChunked(head.headers))
        return answer
    }

    /// An answer without a body; to a `HEAD`, it announces the length the upstream announced.
    private static func bodiless(_ answer: StubResponse, head: HTTPResponseHead, method: HTTPMethod) -> StubResponse {
        method == .head ? RecordedAnswer.answeringHEAD(answer, announced: head.headers) : answer
    }

    /// The length of the body relayed after `head`, when the head tells it: 0 for an answer without a body, the
    /// upstream's `Content-Length` when `live` and not chunked; `nil` when only the body's end tells.
    static func bodyLength(head: HTTPResponseHead, live: Bool, method: HTTPMethod) -> Int64? {
        if !hasBody(head: head, method: method) { return 0 }
        guard live, !RecordedAnswer.isChunked(head.headers) else { return nil }
        return head.expectedContentLength
    }

    /// Whether an answer with `head` to a `method` request has a body: not for `HEAD`, `204` or `304`.
    private static func hasBody(head: HTTPResponseHead, method: HTTPMethod) -> Bool {
        !(method == .head || head.statusCode == 204 || head.statusCode == 304)
    }

    /// The upstream response as the proxy's answer: status, headers minus hop-by-hop ones, body as the upstream sent it
    /// (gzip-encoded again should a transport have decoded it; chunked when the upstream's was).
    static func answer(from response: HTTPResponse) -> StubResponse {
        let data = response.data ?? Data()
        let recorded = Interaction.Response(statusCode: response.statusCode, headers: response.headers)
        let encoded = RecordedAnswer.needsGzip(recorded, bytes: data) ? ContentCoding.gzip(data) : data
        let body = RecordedAnswer.framed(encoded, chunked: RecordedAnswer.isChunked(response.headers))
        return StubResponse(status: response.statusCode, headers: RecordedAnswer.forwardable(response.headers), body: body)
    }
}
