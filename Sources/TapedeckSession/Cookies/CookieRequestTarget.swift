import TapedeckCore
import Foundation

/// The parts of a request URL that cookies look at: canonical host, path (percent-encoded, as sent), and whether
/// the channel is secure.
struct CookieRequestTarget: Sendable {
    /// Lower-case host name, or an IP address without brackets.
    let host: String
    /// `true` when ``host`` is an IPv4 or IPv6 address, which only matches itself.
    let hostIsIPAddress: Bool
    /// The request path as it goes on the wire; `/` when the URL has none.
    let path: String
    /// `true` for `https` and `wss`. Plain `http` is not secure, loopback hosts included.
    let isSecure: Bool

    init(host: String, path: String, isSecure: Bool) {
        self.host = CookieHost.canonicalHost(host)
        hostIsIPAddress = CookieHost.isIPAddress(self.host)
        self.path = path.isEmpty ? "/" : path
        self.isSecure = isSecure
    }

    /// `nil` when the URL has no host (a file URL, a relative reference): such requests neither set nor get cookies.
    init?(_ url: URL) {
        guard let host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
        let scheme = url.scheme.map(\.asciiLowercased)
        self.init(host: host, path: url.path(percentEncoded: true), isSecure: scheme == "https" || scheme == "wss")
    }
}
