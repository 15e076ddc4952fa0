import Foundation
import Glibc
import TapedeckCore

/// A bare TCP listener on 127.0.0.1 that misbehaves on purpose, for the failures a real HTTP server will not
/// produce: closing with no reply, resetting the connection, or never answering.
final class FaultSocketServer: Sendable {
    enum Behavior: Sendable {
        /// Read the request, then close cleanly without a byte of response.
        case closeWithoutResponse
        /// Read the request, then reset the connection (RST via `SO_LINGER` 0).
        case reset
        /// Accept and read, never answer; the connection stays open until the server stops.
        case silent
        /// Answer with these raw bytes, then close.
        case raw(Data)
    }

    let port: UInt16
    private let listener: Int32
    private let behavior: Behavior
    private let openConnections = Locked<[Int32]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ behavior: Behavior) throws {
        self.behavior = behavior
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/fault")! }

    private func acceptLoop() {
        defer { done.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            openConnections.withLock { $0.append(client) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = recv(client, &buffer, buffer.count, 0)
            switch behavior {
            case .closeWithoutResponse:
                closeConnection(client)
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                closeConnection(client)
            case .silent:
                break
            case .raw(let bytes):
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                closeConnection(client)
            }
        }
    }

    private func closeConnection(_ client: Int32) {
        openConnections.withLock { $0.removeAll { $0 == client } }
        close(client)
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        done.wait()
        for client in openConnections.withLock({ $0 }) { close(client) }
    }
}
