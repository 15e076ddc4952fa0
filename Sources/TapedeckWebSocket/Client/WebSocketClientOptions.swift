import Foundation
import TapedeckCore
import TapedeckCurl

/// How a ``WebSocket`` connects: what it offers in the handshake, its limits, TLS and libcurl settings, and timeouts.
///
/// ```swift
/// var options = WebSocketClientOptions(subprotocols: ["graphql-transport-ws"])
/// options.headers.add(name: "Authorization", value: "Bearer \(token)")
/// options.tls.pinnedPublicKeyHashes = [pin]
/// let socket = try await WebSocket.connect(to: URL(string: "wss://api.example.com/graphql")!, options: options)
/// ```
public struct WebSocketClientOptions: Sendable {
    /// Subprotocols offered, in order of preference (`Sec-WebSocket-Protocol`).
    public var subprotocols: [String]
    /// Headers sent with the upgrade request besides the handshake's own (`Authorization`, `Origin`, cookies…).
    public var headers: HTTPHeaders
    /// Limits on the server's frames and messages.
    public var limits: WebSocketLimits
    /// Trust settings for `wss` (verification, anchors, pins, a server trust policy), as for requests.
    public var tls: TLSSettings
    /// libcurl's connection settings: proxy, `CURLOPT_RESOLVE`/`CONNECT_TO` routes, extra anchors.
    public var curl: CurlTransport.Configuration
    /// Seconds to connect (TCP, proxy, TLS) and to receive the answer to the upgrade.
    public var connectTimeout: Double
    /// Seconds a close waits for the server's close before the connection is dropped.
    public var closeTimeout: Double

    /// Options; by default nothing is offered, limits are 16 MiB a frame and 64 MiB a message, and timeouts are
    /// 30 s to connect and 5 s to close.
    public init(
        subprotocols: [String] = [], headers: HTTPHeaders = HTTPHeaders(), limits: WebSocketLimits = WebSocketLimits(),
        tls: TLSSettings = TLSSettings(), curl: CurlTransport.Configuration = .init(),
        connectTimeout: Double = 30, closeTimeout: Double = 5
    ) {
        self.subprotocols = subprotocols
        self.headers = headers
        self.limits = limits
        self.tls = tls
        self.curl = curl
        self.connectTimeout = connectTimeout
        self.closeTimeout = closeTimeout
    }
}
