import CMicroHTTPD
import Foundation
import Glibc

/// Carries out a ``StubFault`` on a connection, from the access handler on the connection's daemon thread.
///
/// libmicrohttpd cannot send a malformed response or reset a connection, so these act on the connection's socket
/// directly, and then return `MHD_NO`, which makes libmicrohttpd close the connection without a response:
/// - closing with no response is just that;
/// - a reset first sets `SO_LINGER` 0 and disconnects the socket (`connect` with `AF_UNSPEC`), which makes the kernel
///   send an RST at once; the descriptor stays valid for libmicrohttpd to close, so no descriptor is closed twice;
/// - raw bytes are written with `send` (a few hundred bytes fit the socket's send buffer), then the connection closes;
/// - a partial body is a normal response whose body producer fails after `sent` bytes, which makes libmicrohttpd
///   drop the connection with the rest of the declared body unsent.
enum FaultInjector {
    static func inject(_ fault: StubFault, on connection: ConnectionHandle, core: StubServerCore) -> MHD_Result {
        switch fault {
        case .closeWithoutResponse, .noResponse:
            return .NO
        case .reset:
            let fd = tdk_mhd_connection_fd(connection.pointer)
            if fd >= 0 { abortiveDisconnect(fd) }
            return .NO
        case .malformedStatusLine, .malformedHeaders, .malformedResponse:
            let fd = tdk_mhd_connection_fd(connection.pointer)
            if fd >= 0, let bytes = fault.rawBytes { writeAll(bytes, to: fd) }
            return .NO
        case .partialBody(let sent, let declared):
            let declared = max(1, declared)
            var response = StubResponse(headers: ["Content-Type": "application/octet-stream"],
                                        body: .generated(length: Int64(declared)))
            response.truncateAfter = Int64(min(max(0, sent), declared - 1))
            return ResponseQueue.queue(response, on: connection, core: core)
        }
    }

    /// Sends an RST now: linger 0 plus a disconnect.
    static func abortiveDisconnect(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(fd, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }

    /// Writes `bytes` to a non-blocking socket, waiting briefly (at most about a second) when its buffer is full.
    private static func writeAll(_ bytes: Data, to fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            var attempts = 0
            while offset < buffer.count, attempts < 100 {
                let written = send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    attempts += 1
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, 10)
                } else {
                    return
                }
            }
        }
    }
}
