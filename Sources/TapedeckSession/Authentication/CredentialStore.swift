import TapedeckCore

/// Credentials by ``ProtectionSpace``, shared safely between tasks: what ``AuthenticationDisposition/performDefaultHandling``
/// consults, as `URLCredentialStorage` does for Foundation.
///
/// A lookup tries the exact space first, then the same origin with no realm, so a credential set for
/// `ProtectionSpace(url:realm: nil)` answers any realm of that origin.
///
/// ```swift
/// let store = CredentialStore()
/// store.set(Credential(user: "ada", password: "secret"), for: ProtectionSpace(url: apiURL, realm: nil))
/// var loop = AuthenticationLoop(credentialStore: store)
/// ```
public final class CredentialStore: Sendable {
    private let credentials = Locked<[ProtectionSpace: Credential]>([:])

    /// Creates an empty store.
    public init() {}

    /// Stores `credential` for `space`, replacing any other. A credential with persistence ``Credential/Persistence/none``
    /// is not stored (and removes nothing).
    public func set(_ credential: Credential, for space: ProtectionSpace) {
        guard credential.persistence != .none else { return }
        credentials.withLock { $0[space] = credential }
    }

    /// The credential for `space`, or for its origin with no realm, or `nil`.
    public func credential(for space: ProtectionSpace) -> Credential? {
        credentials.withLock { $0[space] ?? $0[space.anyRealm] }
    }

    /// Removes the credential stored for exactly `space`.
    public func removeCredential(for space: ProtectionSpace) {
        _ = credentials.withLock { $0.removeValue(forKey: space) }
    }

    /// Removes every credential.
    public func removeAll() {
        credentials.withLock { $0.removeAll() }
    }

    /// Every stored credential by its space.
    public var allCredentials: [ProtectionSpace: Credential] { credentials.withLock { $0 } }
}
