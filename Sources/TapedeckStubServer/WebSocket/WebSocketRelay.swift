import CMicroHTTPD
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckWebSocket

/// One WebSocket connection the recording proxy relays: the client's upgrade went upstream over a libcurl stream
/// (so TLS, trust settings and routes are the proxy's upstream ones), the upstream agreed, and from the `101` on the
/// bytes pass unchanged both ways while a ``WebSocketRelayTap`` notes the frames. When either side leaves (or the
/// server or the recording stops), `ended` gets the `101`, the frames with their times and the connection's metrics,
/// once. Times count from the start of the connection to the upstream, before the upgrade was sent, as a cassette's
/// frame times do.
final class WebSocketRelay: Sendable {
    /// What the upstream answered to the upgrade.
    enum Opening {
        /// `101`: relay.
        case upgraded(WebSocketRelay)
        /// Anything else: the upstream's answer and its body, handed to the client (and recorded) as plain HTTP.
        case refused(WebSocketUpgradeResponseHead, body: Data)
        /// A `101` that accepts extensions (`Sec-WebSocket-Extensions`), which the proxy never offers: the frames
        /// would be transformed (compressed) in a way the recording cannot read, so the connection is not relayed.
        case unofferedExtensions(String)
    }

    /// Outbound bytes above which the side that sends them is not read until the other side took some.
    static let highWater = 1 << 20

    private let stream: CurlStreamConnection
    /// The upstream's `101`.
    let response: WebSocketUpgradeResponseHead
    private let upstreamLeftover: [UInt8]
    private let ended: Locked<Ended?>
    private let stopped = Locked(false)
    /// When the connection to the upstream began: frame times and metrics count from here.
    private let started: ContinuousClock.Instant
    /// The connection's metrics so far: opening it, the `101`'s first byte, and the bytes of the upgrade.
    private let metrics: Locked<TransferMetrics>

    /// What hears the end: the upstream's `101`, the frames, why a direction stopped being noted, and the connection's
    /// metrics (`total` when it ended, bytes each way).
    typealias Ended = @Sendable (_ response: WebSocketUpgradeResponseHead, _ frames: [WebSocketTranscript.Frame], _ problems: [String],
                                 _ metrics: TransferMetrics) -> Void

    private init(stream: CurlStreamConnection, response: WebSocketUpgradeResponseHead, leftover: [UInt8], started: ContinuousClock.Instant,
                 metrics: TransferMetrics, ended: @escaping Ended) {
        self.stream = stream
        self.response = response
        upstreamLeftover = leftover
        self.started = started
        self.metrics = Locked(metrics)
        self.ended = Locked(ended)
    }

    /// Seconds from `start` to now.
    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Sends the upgrade to `url` (`ws` or `wss`) with `headers` and reads the answer, blocking the calling thread
    /// (at most `timeout` seconds). Connection failures throw the `URLError` libcurl's transport would.
    static func open(url: URL, headers: HTTPHeaders, configuration: CurlTransport.Configuration, timeout: TimeInterval,
                     ended: @escaping Ended) throws -> Opening {
        let started = ContinuousClock.now
        let deadline = started + .seconds(timeout)
        let stream = try CurlStreamConnection(url: url, configuration: configuration, connectTimeout: timeout)
        var metrics = stream.connectionMetrics
        metrics.httpVersion = "HTTP/1.1"
        let upgrade = WebSocketUpgradeRequestHead(url: url, headers: headers).bytes
        try sendAll(upgrade, on: stream, until: deadline)
        metrics.bytesSent = Int64(upgrade.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var head: (head: WebSocketUpgradeResponseHead, length: Int)?
        var closed = false
        while true {
            if head == nil { head = try WebSocketUpgradeResponseHead.parse(received) }
            if let (answer, length) = head {
                if answer.status == 101 {
                    let extensions = answer.headers.values(for: "Sec-WebSocket-Extensions").joined(separator: ", ")
                    if !extensions.trimmingCharacters(in: .whitespaces).isEmpty {
                        stream.close()
                        return .unofferedExtensions(extensions)
                    }
                    metrics.bytesReceived = Int64(length)
                    return .upgraded(WebSocketRelay(stream: stream, response: answer, leftover: Array(received[length...]), started: started,
                                                    metrics: metrics, ended: ended))
                }
                // A refusal: its body, as far as Content-Length says (or until the upstream closes), then hand it on.
                let body = received[length...]
                let expected = answer.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                if closed || expected.map({ body.count >= $0 }) == true {
                    stream.close()
                    return .refused(answer, body: Data(body.prefix(expected ?? body.count)))
                }
            } else if closed {
                throw URLError(.networkConnectionLost, failingURL: url, reason: "the upstream closed the connection before answering the upgrade")
            }
            switch try buffer.withUnsafeMutableBytes({ try stream.receive(into: $0) }) {
            case nil: try wait(for: stream.socket, events: Int16(POLLIN), until: deadline, url: url)
            case 0?: closed = true
            case let count?:
                if received.isEmpty { metrics.timeToFirstByte = seconds(since: started) }
                received.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// The relay did not start (the `101` could not be sent, the server stopped): nothing passed, so the upgrade
    /// is recorded with no frames, and the upstream connection closes.
    func abandon(reason: String) {
        stream.close()
        finish(frames: [], problems: [reason])
    }

    /// Relays between the client's upgraded `socket` and the upstream until one of them leaves or the server stops;
    /// `clientLeftover` are the client's bytes that came with its upgrade request. The frames go into `journal` as
    /// they pass.
    func run(socket: Int32, clientLeftover: [UInt8], sockets: UpgradedSockets, journal: WebSocketJournal.Entry) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var tap = WebSocketRelayTap()
        var journaled = 0
        func pass<Bytes: Sequence>(_ bytes: Bytes, from direction: WebSocketTranscript.Direction, at offset: Double) where Bytes.Element == UInt8 {
            tap.passed(bytes, from: direction, at: offset)
            for frame in tap.frames[journaled...] { journal.note(frame.kind, from: frame.direction) }
            journaled = tap.frames.count
        }
        defer { journal.close() }
        var toUpstream = clientLeftover, toClient = upstreamLeftover
        var bytesUp = Int64(toUpstream.count), bytesDown = Int64(toClient.count)
        let upgraded = metrics.withLock { $0.timeToFirstByte }
        pass(toUpstream, from: .client, at: upgraded)
        pass(toClient, from: .server, at: upgraded)
        var clientOpen = true, upstreamOpen = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        func offset() -> Double { Self.seconds(since: started) }
        while !sockets.isStopping, !stopped.withLock({ $0 }) {
            while clientOpen, toUpstream.count < Self.highWater {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    pass(buffer[..<count], from: .client, at: offset())
                    toUpstream.append(contentsOf: buffer[..<count])
                    bytesUp += Int64(count)
                } else {
                    if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { clientOpen = false }
                    break
                }
            }
            while upstreamOpen, toClient.count < Self.highWater {
                let received: Int?
                do {
                    received = try buffer.withUnsafeMutableBytes { try stream.receive(into: $0) }
                } catch {
                    upstreamOpen = false
                    break
                }
                guard let count = received else { break }
                if count == 0 {
                    upstreamOpen = false
                    break
                }
                pass(buffer[..<count], from: .server, at: offset())
                toClient.append(contentsOf: buffer[..<count])
                bytesDown += Int64(count)
            }
            toUpstream.removeFirst(upstreamOpen ? Self.sendSome(toUpstream, stream: stream, open: &upstreamOpen) : toUpstream.count)
            toClient.removeFirst(clientOpen ? Self.sendSome(toClient, socket: socket, open: &clientOpen) : toClient.count)
            // Over when a side left and what it sent has reached the other one.
            if (!clientOpen && toUpstream.isEmpty) || (!upstreamOpen && toClient.isEmpty) { break }
            var descriptors = [
                pollfd(fd: socket, events: Int16(POLLIN) | (toClient.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                pollfd(fd: stream.socket, events: Int16(POLLIN) | (toUpstream.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
            ]
            _ = poll(&descriptors, 2, 250)
        }
        stream.close()
        BlockingSocket(descriptor: socket, sockets: sockets).finish()
        metrics.withLock { metrics in
            metrics.bytesSent += bytesUp
            metrics.bytesReceived += bytesDown
        }
        finish(frames: tap.frames, problems: tap.problems)
    }

    /// Whether the relay has ended (and `ended` was called).
    var isFinished: Bool { ended.withLock { $0 == nil } }

    /// Ends the relay (within a quarter of a second) as if a side had left: the recording is finishing.
    func stop() { stopped.withLock { $0 = true } }

    private func finish(frames: [WebSocketTranscript.Frame], problems: [String]) {
        let ended = ended.withLock { value in
            defer { value = nil }
            return value
        }
        guard let ended else { return }
        let metrics = metrics.withLock { metrics in
            metrics.total = max(metrics.timeToFirstByte, Self.seconds(since: started))
            return metrics
        }
        ended(response, frames, problems, metrics)
    }

    /// Sends what the upstream takes now; the count sent.
    private static func sendSome(_ bytes: [UInt8], stream: CurlStreamConnection, open: inout Bool) -> Int {
        var offset = 0
        while offset < bytes.count {
            guard let sent = try? bytes.withUnsafeBytes({ try stream.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }) else {
                open = false
                return bytes.count
            }
            if sent == 0 { break }
            offset += sent
        }
        return offset
    }

    /// Sends what the client's socket takes now; the count sent.
    private static func sendSome(_ bytes: [UInt8], socket: Int32, open: inout Bool) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                break
            } else {
                open = false
                return bytes.count
            }
        }
        return offset
    }

    private static func sendAll(_ bytes: [UInt8], on stream: CurlStreamConnection, until deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = try bytes.withUnsafeBytes { try stream.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if sent == 0 { try wait(for: stream.socket, events: Int16(POLLOUT), until: deadline, url: stream.url) }
            offset += sent
        }
    }

    private static func wait(for socket: Int32, events: Int16, until deadline: ContinuousClock.Instant, url: URL) throws {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw URLError(.timedOut, failingURL: url, reason: "the upstream did not answer the WebSocket upgrade in time") }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        _ = poll(&descriptor, 1, Int32(clamping: max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)))
    }
}
