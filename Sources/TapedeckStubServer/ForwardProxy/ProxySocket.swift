import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Socket calls a ``ForwardProxy`` makes before a connection goes to a daemon or a tunnel: looking at the first
/// request head without taking it off the socket, taking exactly that many bytes, writing all of a reply.
enum ProxySocket {
    /// Why the head could not be read.
    enum HeadFailure: Error, Equatable {
        /// The peer closed (or reset) the connection first.
        case closed
        /// No whole head arrived in time.
        case timedOut
        /// Not an HTTP/1.x request head; the text says why.
        case invalid(String)
    }

    /// What one look at a socket found.
    enum Peeked {
        /// Nothing to read yet.
        case waiting
        /// `count` bytes of a head that is not whole yet.
        case partial(Int)
        /// A whole head, `length` bytes.
        case complete(ProxyRequestHead, length: Int)
        case failure(HeadFailure)
    }

    /// Looks at what has arrived on `socket` without taking it (`MSG_PEEK`, without waiting), so the socket can be
    /// handed on untouched; `buffer` holds at least ``ProxyRequestHead/maximumLength`` bytes.
    static func peekHead(_ socket: Int32, into buffer: inout [UInt8]) -> Peeked {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .waiting : .failure(.closed) }
        guard count > 0 else { return .failure(.closed) }
        switch ProxyRequestHead.parse(Array(buffer[..<count])) {
        case .complete(let head, let length): return .complete(head, length: length)
        case .invalid(let reason): return .failure(.invalid(reason))
        case .incomplete: return .partial(count)
        }
    }

    /// Takes exactly `count` bytes off `socket` (ones already peeked at); `false` if the connection ended first.
    static func consume(_ socket: Int32, count: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: count)
        var taken = 0
        while taken < count {
            let read = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + taken, count - taken, 0) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            taken += read
        }
        return true
    }

    /// Writes all of `bytes`; `false` if the connection ended first.
    @discardableResult
    static func send(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    /// A complete response that closes the connection: `status reason`, a text body, `Connection: close`.
    static func response(status: Int, reason: String, body: String) -> [UInt8] {
        let payload = Array(body.utf8)
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + payload
    }

    /// The first byte waiting on `socket`, left unread, or `nil` when none came within `timeout` or the peer closed.
    static func peekFirstByte(_ socket: Int32, within timeout: Duration) -> UInt8? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: Int((timeout / .milliseconds(1)).rounded(.up)))
        guard poll(&descriptor, 1, max(1, milliseconds)) > 0 else { return nil }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 1 ? byte : nil
    }

    /// Sends small writes at once (`TCP_NODELAY`).
    static func disableNagle(_ socket: Int32) {
        var on: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The reply that opens a tunnel.
    static let connectionEstablished = Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)
}
