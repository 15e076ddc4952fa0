/// What to do with an authentication challenge: the dispositions of AFNetworking's
/// `setTaskDidReceiveAuthenticationChallengeBlock` (`NSURLSessionAuthChallengeDisposition`).
public enum AuthenticationDisposition: Sendable {
    /// Answer with this credential.
    case useCredential(Credential)
    /// Answer with the ``CredentialStore``'s credential for the protection space; with none, give up and deliver the
    /// 401/407 response.
    case performDefaultHandling
    /// Fail the request with `URLError.userCancelledAuthentication`.
    case cancelAuthenticationChallenge
    /// Decline this challenge and be asked about the response's next supported one; when none is left, deliver the
    /// 401/407 response.
    case rejectProtectionSpace
}

/// What a challenge handler is told: the challenge, its protection space, the stored credential, and how often
/// credentials for this space have failed during the request (`URLAuthenticationChallenge`'s fields).
public struct AuthenticationChallengeContext: Sendable {
    /// The challenge being answered (the response's first supported one, or the next after a rejection).
    public var challenge: AuthenticationChallenge
    /// Where the answer applies.
    public var protectionSpace: ProtectionSpace
    /// The credential ``AuthenticationDisposition/performDefaultHandling`` would use, if any.
    public var proposedCredential: Credential?
    /// How many credentials for this space the server has refused during this request (0 on the first challenge).
    public var previousFailureCount: Int
    /// The 401/407 response.
    public var failureResponse: HTTPResponseHead
    /// The request that received it.
    public var request: HTTPRequest
}

/// Decides what to do with a challenge, like the block of AFNetworking's `setTaskDidReceiveAuthenticationChallengeBlock`.
///
/// ```swift
/// let handler: AuthenticationChallengeHandler = { context in
///     context.previousFailureCount == 0 ? .useCredential(Credential(user: "ada", password: "secret"))
///                                       : .cancelAuthenticationChallenge
/// }
/// ```
public typealias AuthenticationChallengeHandler = @Sendable (AuthenticationChallengeContext) async -> AuthenticationDisposition
