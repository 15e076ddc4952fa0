import CCurl
import Foundation
import TapedeckCore

/// A byte stream to a server that libcurl opens and then hands over (`CURLOPT_CONNECT_ONLY`): name resolution, the
/// proxy (a `CONNECT` tunnel), TLS with the request's trust settings and public-key pins are libcurl's, as for any
/// request, and the bytes after that are the caller's (`curl_easy_send`, `curl_easy_recv`). What a protocol that
/// starts as HTTP and leaves it (a WebSocket) is carried on.
///
/// Sends and receives never block: they report that they would, and the caller waits for ``socket`` with poll(2).
/// With TLS, received bytes may already sit decrypted in OpenSSL while the socket has nothing to read, so a reader
/// calls ``receive(into:)`` until it reports that it would block before it polls.
///
/// ```swift
/// let stream = try CurlStreamConnection(url: URL(string: "https://127.0.0.1:8443/chat")!, tls: tls)
/// _ = try request.withUnsafeBytes { try stream.send($0) }
/// ```
public final class CurlStreamConnection: Sendable {
    /// The easy handle; one thread at a time sends or receives (the lock makes that so).
    private let easy: Locked<LockedEasy?>
    /// The verifier of a server trust policy, kept alive with the connection because OpenSSL points at it.
    private let verifier: Locked<ServerTrustVerifierBox?>
    /// The connected socket, for poll(2).
    public let socket: Int32
    /// The URL it was opened for.
    public let url: URL
    /// What opening it took, as libcurl measured it: name lookup, connect and TLS handshake, in seconds since the
    /// connection began, and the peer's address and port. The other fields are zero.
    public let connectionMetrics: TransferMetrics

    /// Connects to `url`'s host and port (`ws`/`http` in the clear, `wss`/`https` with TLS), blocking until the
    /// connection, the proxy tunnel and the TLS handshake are done or fail with a `URLError` as requests fail.
    public init(
        url: URL, tls: TLSSettings = TLSSettings(), configuration: CurlTransport.Configuration = .init(),
        connectTimeout: Double = 60
    ) throws {
        CurlGlobal.initialize()
        guard let httpURL = Self.httpURL(for: url) else {
            throw URLError(.unsupportedURL, failingURL: url, reason: "\(url.scheme ?? "no scheme") is not ws, wss, http or https")
        }
        guard let handle = curl_easy_init() else { throw URLError(.unknown, failingURL: url, reason: "libcurl could not create a handle") }
        let easy = CurlEasy(handle: handle)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        let routes = CurlStringList(configuration.resolve)
        let connectTo = CurlStringList(configuration.connectTo)
        var policyVerifier: ServerTrustVerifier?
        do {
            try easy.set(CURLOPT_URL, httpURL.absoluteString)
            try easy.set(CURLOPT_CONNECT_ONLY, 1)
            try easy.set(CURLOPT_NOSIGNAL, true)
            try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
            try easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int((connectTimeout * 1000).rounded(.up))))
            if routes.pointer != nil { try easy.set(CURLOPT_RESOLVE, list: routes.pointer) }
            if connectTo.pointer != nil { try easy.set(CURLOPT_CONNECT_TO, list: connectTo.pointer) }
            if let proxy = configuration.proxy {
                try easy.set(CURLOPT_PROXY, proxy)
                // The upgrade needs the bytes end to end, so even a cleartext connection tunnels through the proxy.
                if !proxy.isEmpty { try easy.set(CURLOPT_HTTPPROXYTUNNEL, true) }
            }
            policyVerifier = try easy.configureTLS(for: httpURL, tls: tls, additionalAnchors: configuration.trustedCertificates)
            let code = curl_easy_perform(handle)
            guard code == CURLE_OK else {
                if let rejection = policyVerifier?.rejection {
                    throw rejection.urlError(failingURL: url, peerCertificates: policyVerifier?.presentedChain ?? [])
                }
                let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
                let urlCode = CurlErrorMapping.urlErrorCode(curlCode: Int(code.rawValue), tlsVerifyResult: easy.long(CURLINFO_SSL_VERIFYRESULT))
                throw URLError(urlCode, failingURL: url, reason: message, transportCode: Int(code.rawValue), transportMessage: message)
            }
            var socket = curl_socket_t(-1)
            guard tdk_easy_getinfo_socket(handle, &socket) == CURLE_OK, socket >= 0 else {
                throw URLError(.networkConnectionLost, failingURL: url, reason: "libcurl reports no socket after connecting")
            }
            self.socket = Int32(socket)
            connectionMetrics = TransferMetrics(
                nameLookup: easy.seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: easy.seconds(CURLINFO_CONNECT_TIME_T),
                tlsHandshake: easy.seconds(CURLINFO_APPCONNECT_TIME_T), remoteAddress: easy.string(CURLINFO_PRIMARY_IP) ?? "",
                remotePort: easy.long(CURLINFO_PRIMARY_PORT))
            // The error buffer is freed when this returns; later errors are read from curl_easy_strerror.
            try easy.set(CURLOPT_ERRORBUFFER, pointer: nil)
        } catch {
            curl_easy_cleanup(handle)
            throw error
        }
        self.url = url
        self.easy = Locked(LockedEasy(easy: easy))
        self.verifier = Locked(policyVerifier.map(ServerTrustVerifierBox.init))
    }

    deinit { close() }

    /// Sends what it can of `bytes` without blocking: the count sent, 0 when the socket cannot take any now.
    public func send(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard !bytes.isEmpty else { return 0 }
        return try easy.withLock { locked throws -> Int in
            guard let easy = locked?.easy else { throw URLError(.networkConnectionLost, failingURL: url, reason: "the connection is closed") }
            var sent = 0
            let code = curl_easy_send(easy.handle, bytes.baseAddress, bytes.count, &sent)
            if code == CURLE_AGAIN { return 0 }
            guard code == CURLE_OK else { throw failure(code) }
            return sent
        }
    }

    /// Receives into `buffer` without blocking: the count received, nil when nothing is there now, 0 when the server
    /// closed the connection.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        guard !buffer.isEmpty else { return nil }
        return try easy.withLock { locked throws -> Int? in
            guard let easy = locked?.easy else { return 0 }
            var received = 0
            let code = curl_easy_recv(easy.handle, buffer.baseAddress, buffer.count, &received)
            if code == CURLE_AGAIN { return nil }
            guard code == CURLE_OK else { throw failure(code) }
            return received
        }
    }

    /// Closes the connection (TLS close notify, then the socket). Later sends fail and receives report the end.
    public func close() {
        let locked = easy.withLock { locked -> LockedEasy? in
            defer { locked = nil }
            return locked
        }
        if let locked { curl_easy_cleanup(locked.easy.handle) }
        verifier.withLock { $0 = nil }
    }

    private func failure(_ code: CURLcode) -> URLError {
        let message = String(cString: curl_easy_strerror(code))
        return URLError(CurlErrorMapping.urlErrorCode(curlCode: Int(code.rawValue)), failingURL: url, reason: message,
                        transportCode: Int(code.rawValue), transportMessage: message)
    }

    /// The http(s) URL libcurl connects for a ws(s) or http(s) URL.
    static func httpURL(for url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        switch components.scheme?.lowercased() {
        case "ws", "http": components.scheme = "http"
        case "wss", "https": components.scheme = "https"
        default: return nil
        }
        return components.url
    }
}

/// The easy handle, moved into the connection's lock and only used under it.
private struct LockedEasy: @unchecked Sendable {
    let easy: CurlEasy
}

/// Holds a verifier in a `Mutex` of a `Sendable` connection; it is only kept alive, never used, from there.
private struct ServerTrustVerifierBox: @unchecked Sendable {
    let verifier: ServerTrustVerifier
}
