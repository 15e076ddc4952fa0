import Foundation

/// Why a reachability manager could not be created or could not monitor.
///
/// Bridges to `NSError` in ``errorDomain`` with stable codes.
public enum NetworkReachabilityError: Error, Sendable, Hashable, CustomNSError, LocalizedError {
    /// The domain name given to ``NetworkReachabilityManager/forDomain(_:source:)`` is not a host name.
    case invalidDomain(String, reason: String)
    /// The string given to ``NetworkReachabilityManager/forAddress(_:source:)`` is not an IPv4 or IPv6 address.
    case invalidAddress(String, reason: String)
    /// The system could not be watched: a system call failed (`errno` and the call's name).
    case systemMonitorFailed(operation: String, errno: Int32)
    /// This platform has no ``NetworkReachabilityManager/Source/system`` implementation.
    case unsupportedPlatform

    /// `"com.tapedeck.reachability"`.
    public static let errorDomain = "com.tapedeck.reachability"

    /// 1 invalid domain, 2 invalid address, 3 system monitor failed, 4 unsupported platform.
    public var errorCode: Int {
        switch self {
        case .invalidDomain: 1
        case .invalidAddress: 2
        case .systemMonitorFailed: 3
        case .unsupportedPlatform: 4
        }
    }

    /// A readable description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }

    /// The same text as the `NSError`'s description.
    public var errorDescription: String? { message }

    private var message: String {
        switch self {
        case .invalidDomain(let domain, let reason):
            "\"\(domain)\" is not a domain name: \(reason)"
        case .invalidAddress(let address, let reason):
            "\"\(address)\" is not an IP address: \(reason)"
        case .systemMonitorFailed(let operation, let code):
            "network reachability monitoring failed: \(operation): \(String(cString: strerror(code))) (errno \(code))"
        case .unsupportedPlatform:
            "network reachability monitoring of the system is implemented for Linux only"
        }
    }
}
