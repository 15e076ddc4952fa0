import Foundation

/// A recorded request or response body.
///
/// In memory a body is either its bytes (``Storage/inline(_:)``) or a reference to a sidecar file beside the
/// cassette (``Storage/sidecar(path:byteCount:)``) for bodies over the size threshold. How it is spelled in the file
/// (structured JSON, text or base64) is chosen by the codec from the bytes, so it never changes what is replayed.
///
/// ```swift
/// let body = CassetteBody(Data(#"{"ok":true}"#.utf8))
/// body.inlineData   // the bytes
/// ```
public struct CassetteBody: Hashable, Sendable {
    /// Where the bytes are.
    public enum Storage: Hashable, Sendable {
        /// The bytes themselves.
        case inline(Data)
        /// A file beside the cassette, by path relative to the cassette's directory.
        case sidecar(path: String, byteCount: Int64)
    }

    /// Where the bytes are.
    public var storage: Storage
    /// A content coding (e.g. `gzip`) that the transport had *not* removed: the bytes here are decoded, and are
    /// encoded again when replayed. `nil` when the bytes are exactly what the transport delivered.
    public var contentEncoding: String?

    /// Creates a body from bytes.
    public init(_ data: Data, contentEncoding: String? = nil) {
        self.storage = .inline(data)
        self.contentEncoding = contentEncoding
    }

    /// Creates a body stored in a sidecar file.
    public init(sidecar path: String, byteCount: Int64, contentEncoding: String? = nil) {
        self.storage = .sidecar(path: path, byteCount: byteCount)
        self.contentEncoding = contentEncoding
    }

    /// No body.
    public static let empty = CassetteBody(Data())

    /// The bytes when they are inline, else `nil`.
    public var inlineData: Data? {
        if case .inline(let data) = storage { return data }
        return nil
    }

    /// The body's size in bytes.
    public var byteCount: Int64 {
        switch storage {
        case .inline(let data): return Int64(data.count)
        case .sidecar(_, let byteCount): return byteCount
        }
    }

    /// Whether the body is empty.
    public var isEmpty: Bool { byteCount == 0 }

    /// The sidecar's relative path, when the body is in one.
    public var sidecarPath: String? {
        if case .sidecar(let path, _) = storage { return path }
        return nil
    }
}
