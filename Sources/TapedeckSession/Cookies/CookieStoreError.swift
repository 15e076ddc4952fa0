import Foundation

/// Why a cookie file could not be loaded or saved.
///
/// Bridges to `NSError` in ``errorDomain`` with stable codes. Every case names the file; a corrupt file also names
/// the field, as a path into the JSON such as `cookies[3].expires`.
///
/// ```swift
/// do {
///     let cookies = try CookieStore(contentsOf: fileURL)
/// } catch let error as CookieStoreError {
///     print(error.localizedDescription)
///     // cookie file /tmp/cookies.json is corrupt at cookies[3].expires: "tomorrow" is not an ISO 8601 UTC timestamp
/// }
/// ```
public enum CookieStoreError: Error, Sendable, Hashable, CustomNSError, LocalizedError {
    /// The file could not be read (missing, not permitted, …).
    case unreadableFile(path: String, reason: String)
    /// The file was read but is not a valid cookie file: `field` is where (`""` for the file as a whole), `reason`
    /// what is wrong there.
    case corruptFile(path: String, field: String, reason: String)
    /// The file is a cookie file of a format version this code does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The file could not be written or moved into place.
    case unwritableFile(path: String, reason: String)

    /// `"com.tapedeck.cookies"`.
    public static let errorDomain = "com.tapedeck.cookies"

    /// 1 unreadable file, 2 corrupt file, 3 unsupported version, 4 unwritable file.
    public var errorCode: Int {
        switch self {
        case .unreadableFile: 1
        case .corruptFile: 2
        case .unsupportedVersion: 3
        case .unwritableFile: 4
        }
    }

    /// A readable description under `NSLocalizedDescriptionKey`, and the path under `NSFilePathErrorKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message, NSFilePathErrorKey: path] }

    /// The same text as the `NSError`'s description.
    public var errorDescription: String? { message }

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadableFile(let path, _), .corruptFile(let path, _, _), .unsupportedVersion(let path, _),
             .unwritableFile(let path, _):
            path
        }
    }

    private var message: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot read cookie file \(path): \(reason)"
        case .corruptFile(let path, let field, let reason):
            field.isEmpty ? "cookie file \(path) is corrupt: \(reason)"
                : "cookie file \(path) is corrupt at \(field): \(reason)"
        case .unsupportedVersion(let path, let version):
            "cookie file \(path) has format version \(version); this version of Tapedeck reads version "
                + "\(CookieFile.currentVersion)"
        case .unwritableFile(let path, let reason):
            "cannot write cookie file \(path): \(reason)"
        }
    }
}
