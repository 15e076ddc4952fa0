/// Header names whose values are secrets (credentials, tokens, cookies, keys), for anything that prints or stores
/// requests: exact names, plus fragments any of which makes a name secret (`X-Refresh-Token`, `X-Client-Secret`).
/// Matching ignores ASCII case.
///
/// ```swift
/// SensitiveHeaderNames.default.contains("Authorization")   // true
/// SensitiveHeaderNames.default.contains("X-My-Api-Key")    // true (fragment "api-key")
/// SensitiveHeaderNames.default.contains("Accept")          // false
/// ```
public struct SensitiveHeaderNames: Hashable, Sendable {
    /// Exact names, lowercase.
    public var names: Set<String>
    /// Name fragments, lowercase.
    public var fragments: [String]

    /// Creates a list; names and fragments are lowercased.
    public init(names: Set<String> = SensitiveHeaderNames.defaultNames, fragments: [String] = SensitiveHeaderNames.defaultFragments) {
        self.names = Set(names.map { $0.lowercased() })
        self.fragments = fragments.map { $0.lowercased() }.filter { !$0.isEmpty }
    }

    /// The built-in list: ``defaultNames`` and ``defaultFragments``.
    public static let `default` = SensitiveHeaderNames()

    /// `authorization`, `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`, `api-key`, `apikey`,
    /// `x-auth-token`, `x-access-token`, `x-csrf-token`, `x-xsrf-token`, `x-amz-security-token`, `private-token`,
    /// `x-goog-api-key`, `x-functions-key`.
    public static let defaultNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token", "x-amz-security-token", "private-token",
        "x-goog-api-key", "x-functions-key",
    ]

    /// `token`, `secret`, `password`, `signature`, `api_key`, `apikey`, `api-key`, `credential`.
    public static let defaultFragments = ["token", "secret", "password", "signature", "api_key", "apikey", "api-key", "credential"]

    /// Whether `name` is one of the names or contains one of the fragments, ignoring case.
    public func contains(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return names.contains(lowered) || fragments.contains { lowered.contains($0) }
    }
}
