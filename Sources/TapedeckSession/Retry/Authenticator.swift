/// A credential an ``Authenticator`` applies: a token, a key pair, a signed session, …
public protocol AuthenticationCredential: Sendable {
    /// Whether it must be refreshed before it is used (e.g. an OAuth token about to expire).
    var requiresRefresh: Bool { get }
}

/// How an ``AuthenticationInterceptor`` applies, refreshes and judges a credential (Alamofire's `Authenticator`).
///
/// ```swift
/// struct OAuthAuthenticator: Authenticator {
///     func apply(_ token: OAuthToken, to request: inout HTTPRequest) {
///         request.headers["Authorization"] = "Bearer \(token.access)"
///     }
///     func refresh(_ token: OAuthToken) async throws -> OAuthToken {
///         try await tokenService.refresh(token.refresh)
///     }
///     func didRequest(_ request: HTTPRequest, with response: HTTPResponse,
///                     failDueToAuthenticationError error: (any Error)?) -> Bool {
///         response.statusCode == 401
///     }
///     func isRequest(_ request: HTTPRequest, authenticatedWith token: OAuthToken) -> Bool {
///         request.headers["Authorization"] == "Bearer \(token.access)"
///     }
/// }
/// ```
public protocol Authenticator: Sendable {
    /// The credential type (an OAuth token, an API key, …).
    associatedtype Token: AuthenticationCredential

    /// Puts the credential on the request, e.g. as an `Authorization` header.
    func apply(_ credential: Token, to request: inout HTTPRequest)

    /// A fresh credential replacing `credential`. The interceptor runs one refresh at a time, however many requests
    /// need it; a thrown error fails every request waiting for it.
    func refresh(_ credential: Token) async throws -> Token

    /// Whether the failure means the credential was refused (typically a 401); `error` is the error the request failed
    /// with, `nil` when the response itself is the failure.
    func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: (any Error)?) -> Bool

    /// Whether `request` was sent with `credential`. When it was sent with an older one, the interceptor retries it with
    /// the current credential instead of refreshing again.
    func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool
}
