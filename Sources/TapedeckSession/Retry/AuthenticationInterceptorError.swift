import Foundation

/// Why an ``AuthenticationInterceptor`` failed a request. Bridges to `NSError` in the domain
/// `"com.tapedeck.authentication-interceptor"` with the codes below, which do not change.
public enum AuthenticationInterceptorError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// No credential was set (code 1).
    case missingCredential
    /// More refreshes than the refresh window allows: the server keeps refusing fresh credentials (code 2).
    case excessiveRefresh

    /// `"com.tapedeck.authentication-interceptor"`.
    public static let errorDomain = "com.tapedeck.authentication-interceptor"

    /// The case's code in ``errorDomain``: 1 for ``missingCredential``, 2 for ``excessiveRefresh``.
    public var errorCode: Int {
        switch self {
        case .missingCredential: return 1
        case .excessiveRefresh: return 2
        }
    }

    /// The bridged `NSError`'s user info: `NSLocalizedDescriptionKey` carries ``errorDescription``.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    /// What went wrong, in one lower-case sentence.
    public var errorDescription: String? {
        switch self {
        case .missingCredential: return "the authentication interceptor has no credential to apply"
        case .excessiveRefresh: return "the credential was refreshed too often within the refresh window"
        }
    }
}
