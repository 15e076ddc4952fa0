import Foundation
import TapedeckCore

/// The hash algorithms of the `Digest` scheme (RFC 7616 §3.3, §6.1), each computed by Tapedeck itself (no
/// cryptography library): every algorithm the RFC registers.
public enum DigestAlgorithm: String, CaseIterable, Hashable, Sendable {
    /// `MD5`, the default when a challenge names no algorithm.
    case md5 = "MD5"
    /// `MD5-sess`: A1 is hashed once with the server and client nonces.
    case md5Session = "MD5-sess"
    /// `SHA-256`.
    case sha256 = "SHA-256"
    /// `SHA-256-sess`.
    case sha256Session = "SHA-256-sess"
    /// `SHA-512-256`: SHA-512/256 of FIPS 180-4.
    case sha512_256 = "SHA-512-256"
    /// `SHA-512-256-sess`.
    case sha512_256Session = "SHA-512-256-sess"

    /// The algorithm an `algorithm` parameter names (any case), or `nil` for one not supported.
    public init?(token: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == token.lowercased() }) else { return nil }
        self = match
    }

    /// Whether this is a `-sess` variant.
    public var isSession: Bool { self == .md5Session || self == .sha256Session || self == .sha512_256Session }

    /// The lowercase hex digest of `bytes`.
    public func hexDigest(_ bytes: some DataProtocol) -> String {
        var hash = AnyBlockHash(self)
        hash.update(bytes)
        return hash.finalize().lowercaseHex
    }

    /// The lowercase hex digest of `text`'s UTF-8 bytes.
    public func hexDigest(_ text: String) -> String { hexDigest(Data(text.utf8)) }

    /// The lowercase hex digest of a file's contents, read in pieces; `nil` when it cannot be read.
    func hexDigest(contentsOf url: URL) -> String? {
        var hash = AnyBlockHash(self)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(chunk) }
        } catch {
            return nil
        }
        return hash.finalize().lowercaseHex
    }
}

/// A `qop` value of the `Digest` scheme.
public enum DigestQualityOfProtection: String, Hashable, Sendable {
    /// `auth`: the method and URI are protected.
    case auth
    /// `auth-int`: the body is protected too (its hash enters the response).
    case authInt = "auth-int"
}

/// The hash a ``DigestAlgorithm`` names, fed in pieces.
private enum AnyBlockHash {
    case md5(MD5Hash)
    case sha256(SHA256Hash)
    case sha512(SHA512Hash)

    init(_ algorithm: DigestAlgorithm) {
        switch algorithm {
        case .md5, .md5Session: self = .md5(MD5Hash())
        case .sha256, .sha256Session: self = .sha256(SHA256Hash())
        case .sha512_256, .sha512_256Session: self = .sha512(.sha512_256())
        }
    }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        switch self {
        case .md5(var hash): hash.update(bytes); self = .md5(hash)
        case .sha256(var hash): hash.update(bytes); self = .sha256(hash)
        case .sha512(var hash): hash.update(bytes); self = .sha512(hash)
        }
    }

    mutating func finalize() -> [UInt8] {
        switch self {
        case .md5(var hash): return hash.finalize()
        case .sha256(var hash): return hash.finalize()
        case .sha512(var hash): return hash.finalize()
        }
    }
}
