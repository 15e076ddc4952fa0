import Foundation
import TapedeckCore
import TapedeckCurl

extension StubServer {
    /// A `CurlTransport` that sends requests for the server's ``Configuration/hostNames`` (any port) to this server
    /// (libcurl's connect-to override: the URL, `Host` header and TLS name stay those of the production host) and
    /// trusts ``Configuration/trustedCertificates``, so the client under test keeps its production base URL.
    ///
    /// ```swift
    /// let server = try StubServer.https(hostNames: ["api.example.com"])
    /// server.route(.get, "/v1/me", response: .json(["name": "Ada"]))
    /// let response = try await server.transport().send(HTTPRequest(url: URL(string: "https://api.example.com/v1/me")!))
    /// ```
    /// Settings in `configuration` are kept; the routes and anchors are added to them.
    public func transport(configuration: CurlTransport.Configuration = .init()) -> CurlTransport {
        var routed = configuration
        routed.connectTo += connectToEntries
        routed.trustedCertificates += self.configuration.trustedCertificates
        return CurlTransport(configuration: routed)
    }

    /// The `CURLOPT_CONNECT_TO` entries that route ``Configuration/hostNames`` here: `NAME::ADDRESS:PORT`.
    public var connectToEntries: [String] {
        let address = host.contains(":") ? "[\(host)]" : host
        return configuration.hostNames.map { "\($0)::\(address):\(port)" }
    }

    /// Starts an HTTPS server for `hostNames` with a certificate authority made for this run: the leaf names every
    /// host (plus `localhost`, `127.0.0.1` and `::1`), and ``transport(configuration:)`` routes those names here and
    /// trusts the CA.
    ///
    /// ```swift
    /// let server = try StubServer.https(hostNames: ["api.example.com", "auth.example.com"])
    /// let client = server.transport()   // https://api.example.com/... now reaches the stub server
    /// ```
    public static func https(hostNames: [String], configuration: Configuration = Configuration()) throws -> StubServer {
        try StubServer(configuration: httpsConfiguration(hostNames: hostNames, configuration))
    }

    /// `configuration` with a run-time CA's certificate for `hostNames` (see ``https(hostNames:configuration:)``).
    package static func httpsConfiguration(hostNames: [String], _ configuration: Configuration) throws -> Configuration {
        let authority = try TestCertificateAuthority()
        var configuration = configuration
        configuration.tls = try authority.issue(for: hostNames)
        configuration.hostNames = hostNames
        configuration.trustedCertificates.append(authority.trustAnchor)
        return configuration
    }
}
