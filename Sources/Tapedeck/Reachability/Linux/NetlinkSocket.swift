#if canImport(Glibc)
import Glibc

/// `struct sockaddr_nl` (linux/netlink.h), which Glibc's Swift module does not import.
private struct NetlinkSocketAddress {
    var family = UInt16(Netlink.addressFamily)
    var padding: UInt16 = 0
    var portID: UInt32 = 0
    var groups: UInt32 = 0
}

/// A NETLINK_ROUTE socket: opened, optionally subscribed to multicast groups, closed once.
final class NetlinkSocket: Sendable {
    let descriptor: Int32

    /// Opens a socket; `groups` are RTMGRP_* bits to receive notifications for.
    init(groups: UInt32 = 0, receiveTimeoutSeconds: Int? = nil) throws(NetworkReachabilityError) {
        let descriptor = socket(Netlink.addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                Netlink.routeProtocol)
        guard descriptor >= 0 else { throw .systemMonitorFailed(operation: "socket(AF_NETLINK)", errno: errno) }
        self.descriptor = descriptor
        var bufferSize: Int32 = 1 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
        if let receiveTimeoutSeconds {
            var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = NetlinkSocketAddress(groups: groups)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<NetlinkSocketAddress>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw .systemMonitorFailed(operation: "bind(NETLINK_ROUTE)", errno: code)
        }
    }

    deinit { close(descriptor) }

    /// Sends one request to the kernel.
    func send(_ bytes: [UInt8]) throws(NetworkReachabilityError) {
        var kernel = NetlinkSocketAddress()
        let sent = withUnsafePointer(to: &kernel) { kernelAddress in
            kernelAddress.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, 0, target,
                           socklen_t(MemoryLayout<NetlinkSocketAddress>.size))
                }
            }
        }
        guard sent == bytes.count else { throw .systemMonitorFailed(operation: "sendto(NETLINK_ROUTE)", errno: errno) }
    }

    /// What one `recv` returned.
    enum Received {
        case datagram([UInt8])
        /// Nothing is waiting (only with `wait: false`).
        case empty
        /// The kernel dropped notifications because the socket's buffer was full (`ENOBUFS`).
        case overflow
    }

    /// Receives one datagram into `buffer`; `wait: false` returns ``Received/empty`` when none is queued.
    func receive(into buffer: inout [UInt8], wait: Bool) throws(NetworkReachabilityError) -> Received {
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, wait ? 0 : Int32(MSG_DONTWAIT))
            }
            if count >= 0 { return .datagram(Array(buffer[..<count])) }
            switch errno {
            case EINTR: continue
            case EAGAIN where !wait: return .empty
            case ENOBUFS: return .overflow
            case let code: throw .systemMonitorFailed(operation: "recv(NETLINK_ROUTE)", errno: code)
            }
        }
    }
}

/// A pipe whose read end wakes a thread blocked in `poll`.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(NetworkReachabilityError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemMonitorFailed(operation: "pipe", errno: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
#endif
