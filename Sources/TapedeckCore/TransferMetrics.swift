/// Timings and sizes of one transfer. Durations are measured from the start of the transfer, in seconds,
/// like the phases of `URLSessionTaskTransactionMetrics`.
public struct TransferMetrics: Hashable, Sendable {
    /// When name resolution finished.
    public var nameLookup: Double
    /// When the TCP connection was established.
    public var connect: Double
    /// When the TLS handshake finished (`0` for plain HTTP).
    public var tlsHandshake: Double
    /// When the first response byte arrived.
    public var timeToFirstByte: Double
    /// When the transfer finished.
    public var total: Double
    /// Bytes sent: request line, headers and body.
    public var bytesSent: Int64
    /// Bytes received: status line, headers and body.
    public var bytesReceived: Int64
    /// Whether an existing connection was reused rather than a new one opened.
    public var connectionReused: Bool
    /// The protocol used, e.g. `"HTTP/1.1"` or `"HTTP/2"`.
    public var httpVersion: String
    /// The address connected to, e.g. `"127.0.0.1"`.
    public var remoteAddress: String
    /// The port connected to.
    public var remotePort: Int
    /// How many redirects were followed.
    public var redirectCount: Int

    /// Creates metrics; everything defaults to zero.
    public init(
        nameLookup: Double = 0, connect: Double = 0, tlsHandshake: Double = 0, timeToFirstByte: Double = 0,
        total: Double = 0, bytesSent: Int64 = 0, bytesReceived: Int64 = 0, connectionReused: Bool = false,
        httpVersion: String = "", remoteAddress: String = "", remotePort: Int = 0, redirectCount: Int = 0
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.timeToFirstByte = timeToFirstByte
        self.total = total
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.connectionReused = connectionReused
        self.httpVersion = httpVersion
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.redirectCount = redirectCount
    }
}
