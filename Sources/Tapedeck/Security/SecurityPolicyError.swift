import Foundation

/// A security policy that cannot be used: found when it is built or applied, never by letting traffic through.
///
/// Bridges to `NSError` in ``errorDomain`` with stable codes:
///
/// | case | code |
/// |---|---|
/// | ``unreadableCertificate(source:reason:)`` | 1 |
/// | ``unreadableDirectory(_:reason:)`` | 2 |
/// | ``pinningWithoutCertificates(_:)`` | 3 |
/// | ``pinningRequiresHTTPS(baseURL:)`` | 4 |
/// | ``domainValidationRequiresPinning`` | 5 |
public enum SecurityPolicyError: Error, Hashable, Sendable, CustomStringConvertible, CustomNSError {
    /// A pinned certificate could not be parsed; `source` names the file (or the position in the list).
    case unreadableCertificate(source: String, reason: String)
    /// A certificate directory could not be listed.
    case unreadableDirectory(URL, reason: String)
    /// A pinning mode with no pinned certificate, which would reject every server.
    case pinningWithoutCertificates(SecurityPolicy.PinningMode)
    /// A pinning policy on a manager whose base URL is not `https` (AFNetworking raises here too).
    case pinningRequiresHTTPS(baseURL: URL)
    /// Invalid certificates allowed and the domain name validated without pinning: AFNetworking rejects every
    /// server under this policy, since a self-signed certificate's domain can only be trusted through a pin.
    case domainValidationRequiresPinning

    /// `"TapedeckSecurityPolicyErrorDomain"`.
    public static let errorDomain = "TapedeckSecurityPolicyErrorDomain"

    /// The stable code listed above.
    public var errorCode: Int {
        switch self {
        case .unreadableCertificate: 1
        case .unreadableDirectory: 2
        case .pinningWithoutCertificates: 3
        case .pinningRequiresHTTPS: 4
        case .domainValidationRequiresPinning: 5
        }
    }

    /// The description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    /// What is wrong, naming the file, mode or URL.
    public var description: String {
        switch self {
        case .unreadableCertificate(let source, let reason):
            "The pinned certificate \(source) cannot be read: \(reason)"
        case .unreadableDirectory(let url, let reason):
            "The certificate directory \(url.path) cannot be read: \(reason)"
        case .pinningWithoutCertificates(let mode):
            "The \(mode.rawValue) pinning mode needs at least one pinned certificate; with none every server is rejected"
        case .pinningRequiresHTTPS(let baseURL):
            "A pinning security policy needs an https base URL, not \(baseURL.absoluteString)"
        case .domainValidationRequiresPinning:
            "A policy that allows invalid certificates and validates domain names must pin certificates"
        }
    }
}
