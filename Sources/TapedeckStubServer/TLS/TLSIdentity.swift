import Foundation

/// The certificate chain and private key a server presents over HTTPS, both PEM.
///
/// ```swift
/// let identity = try TLSIdentity(certificateChainFile: certURL, privateKeyFile: keyURL)
/// let server = try StubServer(configuration: .init(tls: identity))
/// ```
public struct TLSIdentity: Sendable, Hashable {
    /// The leaf certificate first, then any intermediates, PEM.
    public var certificateChainPEM: String
    /// The leaf's private key, PEM (PKCS#8, RSA or EC).
    public var privateKeyPEM: String

    /// Creates an identity from PEM text.
    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads an identity from PEM files.
    public init(certificateChainFile: URL, privateKeyFile: URL) throws {
        self.certificateChainPEM = try String(contentsOf: certificateChainFile, encoding: .utf8)
        self.privateKeyPEM = try String(contentsOf: privateKeyFile, encoding: .utf8)
    }
}
