import Foundation

/// The `URLError`s every transport reports: created with the failing URL and a readable reason, and carrying the
/// transport's own code and message and, on a trust failure, the server's certificates and the rule that failed.
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

/// Swift names of `URLError.Code` values and what they usually mean, for messages and for people reading a cassette
/// (which writes the name beside the number).
///
/// ```swift
/// URLErrorNames.name(-1004)        // "cannotConnectToHost"
/// URLErrorNames.name(-4242)        // "code-4242"
/// ```
public enum URLErrorNames {
    static let names: [Int: (name: String, explanation: String)] = [
        -999: ("cancelled", "the transfer was cancelled"),
        -1000: ("badURL", "the URL is malformed"),
        -1001: ("timedOut", "the server did not answer in time"),
        -1002: ("unsupportedURL", "the URL's scheme is not supported"),
        -1003: ("cannotFindHost", "the host name could not be resolved"),
        -1004: ("cannotConnectToHost", "nothing accepted the connection (is the server running, is the port right?)"),
        -1005: ("networkConnectionLost", "the connection dropped during the transfer"),
        -1006: ("dnsLookupFailed", "the host name lookup failed"),
        -1007: ("httpTooManyRedirects", "the server redirected too many times"),
        -1009: ("notConnectedToInternet", "there is no network connection"),
        -1011: ("badServerResponse", "the server's answer was not valid HTTP"),
        -1017: ("cannotParseResponse", "the response could not be parsed"),
        -1100: ("fileDoesNotExist", "the file does not exist"),
        -1200: ("secureConnectionFailed", "the TLS handshake failed"),
        -1201: ("serverCertificateHasBadDate", "the server's certificate has expired or is not yet valid"),
        -1202: ("serverCertificateUntrusted", "the server's certificate is not trusted"),
        -1203: ("serverCertificateHasUnknownRoot", "the server's certificate has an unknown root"),
        -1206: ("clientCertificateRequired", "the server asked for a client certificate"),
        -3000: ("cannotCreateFile", "the download file could not be created"),
        -3003: ("cannotWriteToFile", "the download file could not be written"),
    ]

    /// The code's Swift name (`cannotConnectToHost` for -1004), or `nil` for a code without one here.
    public static func knownName(_ code: Int) -> String? { names[code]?.name }

    /// The code's Swift name, or `code<N>` for a code without one here.
    public static func name(_ code: Int) -> String { knownName(code) ?? "code\(code)" }

    /// What the code usually means, in words.
    public static func explanation(_ code: Int) -> String? { names[code]?.explanation }
}
