import Foundation

extension URLError {
    /// `userInfo` key for the transport's own error code (for CurlTransport, the `CURLcode` as an `Int`).
    public static let transportCodeKey = "TapedeckTransportCode"
    /// `userInfo` key for the transport's own error message (for CurlTransport, curl's error buffer).
    public static let transportMessageKey = "TapedeckTransportMessage"

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
}
