import Foundation

extension URLError {
    /// `userInfo` key for the transport's own error code (for CurlTransport, the `CURLcode` as an `Int`).
    public static let transportCodeKey = "TapedeckTransportCode"
    /// `userInfo` key for the transport's own error message (for CurlTransport, curl's error buffer).
    public static let transportMessageKey = "TapedeckTransportMessage"
    /// `userInfo` key for the server's certificate chain (`[Data]`, DER, leaf first) on a trust failure.
    public static let peerCertificatesKey = "TapedeckPeerCertificates"
    /// `userInfo` key for the trust rule that failed (a `ServerTrustRejection.Rule` raw value, `String`).
    public static let trustRuleKey = "TapedeckTrustRule"

    /// Creates a `URLError` carrying the failing URL and a readable description, as Foundation's own do.
    ///
    /// ```swift
    /// throw URLError(.timedOut, failingURL: url, reason: "no byte for 5 s")
    /// ```
    public init(
        _ code: URLError.Code,
        failingURL: URL?,
        reason: String,
        transportCode: Int? = nil,
        transportMessage: String? = nil
    ) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: reason]
        if let failingURL {
            info[NSURLErrorFailingURLErrorKey] = failingURL
        }
        if let transportCode { info[URLError.transportCodeKey] = transportCode }
        if let transportMessage { info[URLError.transportMessageKey] = transportMessage }
        self.init(code, userInfo: info)
    }

    /// The transport's own error code, when it gave one.
    public var transportCode: Int? { userInfo[URLError.transportCodeKey] as? Int }
    /// The transport's own error message, when it gave one.
    public var transportMessage: String? { userInfo[URLError.transportMessageKey] as? String }
    /// The server's certificates (DER, leaf first) when a trust evaluation failed, else empty.
    public var peerCertificates: [Data] { userInfo[URLError.peerCertificatesKey] as? [Data] ?? [] }
    /// The trust rule that failed, when a trust policy rejected the server.
    public var trustRule: ServerTrustRejection.Rule? {
        (userInfo[URLError.trustRuleKey] as? String).flatMap(ServerTrustRejection.Rule.init(rawValue:))
    }
}
