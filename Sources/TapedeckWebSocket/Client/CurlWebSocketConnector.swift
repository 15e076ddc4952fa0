import Foundation
import TapedeckCore
import TapedeckCurl
#if canImport(Glibc)
import Glibc
#endif

/// Opens a live WebSocket on the calling thread (which it blocks): libcurl connects (proxy, TLS, pins), then the
/// upgrade request is written and its answer read and checked over the raw stream.
enum CurlWebSocketConnector {
    struct Opened {
        let stream: CurlStreamConnection
        let request: HTTPHeaders
        let response: WebSocketUpgradeResponseHead
        let negotiation: WebSocketNegotiation
        /// Bytes after the answer's head: the server's first frames, if it sent them at once.
        let leftover: [UInt8]
        /// Opening the connection, the answer's first byte and the bytes of the handshake.
        let metrics: TransferMetrics
    }

    static func open(url: URL, options: WebSocketClientOptions) throws -> Opened {
        let started = ContinuousClock.now
        let deadline = started + .seconds(options.connectTimeout)
        let stream = try CurlStreamConnection(
            url: url, tls: options.tls, configuration: options.curl, connectTimeout: options.connectTimeout)
        var metrics = stream.connectionMetrics
        metrics.httpVersion = "HTTP/1.1"
        let key = WebSocketHandshake.makeKey()
        var headers = WebSocketHandshake.requestHeaders(key: key, subprotocols: options.subprotocols)
        for field in options.headers { headers.add(name: field.name, value: field.value) }
        let request = WebSocketUpgradeRequestHead(url: url, headers: headers)
        let requestBytes = request.bytes
        try sendAll(requestBytes, on: stream, until: deadline)
        metrics.bytesSent = Int64(requestBytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let (head, length) = try WebSocketUpgradeResponseHead.parse(received) {
                let negotiation = try WebSocketHandshake.validateResponse(
                    status: head.status, headers: head.headers, key: key, offeredSubprotocols: options.subprotocols)
                metrics.bytesReceived = Int64(length)
                return Opened(stream: stream, request: headers, response: head, negotiation: negotiation, leftover: Array(received[length...]),
                              metrics: metrics)
            }
            let count = try buffer.withUnsafeMutableBytes { try stream.receive(into: $0) }
            switch count {
            case nil: try wait(for: stream, events: Int16(POLLIN), until: deadline)
            case 0?: throw URLError(.networkConnectionLost, failingURL: url, reason: "the server closed the connection before answering the upgrade")
            case let count?:
                if received.isEmpty {
                    let elapsed = ContinuousClock.now - started
                    metrics.timeToFirstByte = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                }
                received.append(contentsOf: buffer[..<count])
            }
        }
    }

    static func sendAll(_ bytes: [UInt8], on stream: CurlStreamConnection, until deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = try bytes.withUnsafeBytes { try stream.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if sent == 0 { try wait(for: stream, events: Int16(POLLOUT), until: deadline) }
            offset += sent
        }
    }

    /// Waits until the socket is ready for `events`, or throws `timedOut` at the deadline.
    static func wait(for stream: CurlStreamConnection, events: Int16, until deadline: ContinuousClock.Instant) throws {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw URLError(.timedOut, failingURL: stream.url, reason: "the WebSocket handshake timed out") }
        var descriptor = pollfd(fd: stream.socket, events: events, revents: 0)
        _ = poll(&descriptor, 1, Int32(clamping: max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)))
    }
}
