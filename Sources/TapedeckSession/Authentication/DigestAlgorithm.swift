import Crypto
import Foundation

/// The hash algorithms of the `Digest` scheme that Tapedeck computes (RFC 7616 §3.3, §6.1). `SHA-512-256` is not
/// supported: a challenge offering only it is not answered.
public enum DigestAlgorithm: String, CaseIterable, Hashable, Sendable {
    /// `MD5`, the default when a challenge names no algorithm.
    case md5 = "MD5"
    /// `MD5-sess`: A1 is hashed once with the server and client nonces.
    case md5Session = "MD5-sess"
    /// `SHA-256`.
    case sha256 = "SHA-256"
    /// `SHA-256-sess`.
    case sha256Session = "SHA-256-sess"

    /// The algorithm an `algorithm` parameter names (any case), or `nil` for one not supported.
    public init?(token: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == token.lowercased() }) else { return nil }
        self = match
    }

    /// Whether this is a `-sess` variant.
    public var isSession: Bool { self == .md5Session || self == .sha256Session }

    /// The lowercase hex digest of `bytes`.
    public func hexDigest(_ bytes: some DataProtocol) -> String {
        switch self {
        case .md5, .md5Session: return Self.hex(Insecure.MD5.hash(data: bytes))
        case .sha256, .sha256Session: return Self.hex(SHA256.hash(data: bytes))
        }
    }

    /// The lowercase hex digest of `text`'s UTF-8 bytes.
    public func hexDigest(_ text: String) -> String { hexDigest(Data(text.utf8)) }

    /// The lowercase hex digest of a file's contents, read in pieces; `nil` when it cannot be read.
    func hexDigest(contentsOf url: URL) -> String? {
        switch self {
        case .md5, .md5Session: return Self.hexDigest(Insecure.MD5(), contentsOf: url)
        case .sha256, .sha256Session: return Self.hexDigest(SHA256(), contentsOf: url)
        }
    }

    private static func hexDigest<Hash: HashFunction>(_ hasher: Hash, contentsOf url: URL) -> String? {
        var hasher = hasher
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            return nil
        }
        return hex(hasher.finalize())
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A `qop` value of the `Digest` scheme.
public enum DigestQualityOfProtection: String, Hashable, Sendable {
    /// `auth`: the method and URI are protected.
    case auth
    /// `auth-int`: the body is protected too (its hash enters the response).
    case authInt = "auth-int"
}
