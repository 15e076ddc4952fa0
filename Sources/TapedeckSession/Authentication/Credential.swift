/// A user name and password that answers `Basic` and `Digest` challenges, as `URLCredential` does. Printing one never
/// shows the password.
///
/// ```swift
/// let credential = Credential(user: "ada", password: "secret", persistence: .forSession)
/// ```
public struct Credential: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// How long a credential is remembered after it was used successfully.
    public enum Persistence: Hashable, Sendable {
        /// Used for the one request; never stored.
        case none
        /// Stored in the ``CredentialStore`` in use once it has been accepted, for the life of that store.
        case forSession
    }

    /// The user name (RFC 7617: it must not contain a colon for `Basic`).
    public var user: String
    /// The password.
    public var password: String
    /// How long the credential is remembered.
    public var persistence: Persistence

    /// Creates a credential, remembered for the session by default.
    public init(user: String, password: String, persistence: Persistence = .forSession) {
        self.user = user
        self.password = password
        self.persistence = persistence
    }

    /// How messages and reports print it, the password never shown.
    public var description: String { "Credential(user: \"\(user)\", password: <redacted>, persistence: \(persistence))" }
    /// The same as ``description``: the debugger and `debugPrint` never show the password either.
    public var debugDescription: String { description }
}
