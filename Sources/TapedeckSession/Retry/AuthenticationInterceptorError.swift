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

    public var errorCode: Int {
        switch self {
        case .missingCredential: return 1
        case .excessiveRefresh: return 2
        }
    }

    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    public var errorDescription: String? {
        switch self {
        case .missingCredential: return "the authentication interceptor has no credential to apply"
        case .excessiveRefresh: return "the credential was refreshed too often within the refresh window"
        }
    }
}
