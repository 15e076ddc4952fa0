import Foundation

/// The authentication state machine of one request: given each response and the request that got it, says whether to
/// send the request again with `Authorization` / `Proxy-Authorization`, deliver the response, or fail.
///
/// A session keeps one loop per task and calls ``next(after:to:)`` with every response head:
///
/// ```swift
/// var loop = AuthenticationLoop(handler: handler, credentialStore: store)
/// var request = originalRequest
/// while true {
///     let response = try await transport.send(request)
///     switch await loop.next(after: response.head, to: request) {
///     case .retry(let authorized): request = authorized      // send again
///     case .proceed, .stop: return response                  // deliver this response (a 401/407 when stopped)
///     case .fail(let error): throw error                     // URLError.userCancelledAuthentication
///     }
/// }
/// ```
///
/// Challenges are tried `Digest` first (in the order the server listed them), then `Basic`; other schemes are not
/// answered. For each, ``handler`` decides (``AuthenticationDisposition``); without a handler the
/// ``credentialStore``'s credential is used, as AFNetworking's default handling does.
///
/// **Termination.** The loop never sends a credential again to a protection space that refused it: a second
/// 401/407 for the same space after that credential was sent marks it refused, and if the handler or the store offers
/// it again the loop stops with ``StopReason/credentialRejected``. The one exception is a `Digest` challenge with
/// `stale=true` and a nonce this loop has not used yet, which is answered with the same credential without asking the
/// handler (the server accepted the password, only the nonce expired). Whatever the server does, at most
/// ``maximumChallenges`` challenges are answered (``StopReason/tooManyChallenges`` after that).
public struct AuthenticationLoop: Sendable {
    /// What to do after a response.
    public enum Step: Sendable {
        /// The response is not a challenge (any status but 401 and 407): deliver it. Credentials that led to it and are
        /// persistent ``Credential/Persistence/forSession`` are now in the credential store.
        case proceed
        /// Send this request: the one that was challenged, with its authorization header set.
        case retry(HTTPRequest)
        /// Give up and deliver the 401/407 response as it is.
        case stop(StopReason)
        /// Fail the request with this error (`URLError.userCancelledAuthentication`).
        case fail(URLError)
    }

    /// Why the loop delivered a 401/407 instead of answering it.
    public enum StopReason: Hashable, Sendable {
        /// No challenge in the response was one the loop can answer.
        case noSupportedChallenge
        /// Default handling found no stored credential.
        case noCredential
        /// The credential offered was already refused for this protection space during this request.
        case credentialRejected
        /// The handler rejected every protection space offered.
        case allProtectionSpacesRejected
        /// ``AuthenticationLoop/maximumChallenges`` challenges were answered already.
        case tooManyChallenges
    }

    /// Decides each challenge; `nil` means ``AuthenticationDisposition/performDefaultHandling`` for all.
    public var handler: AuthenticationChallengeHandler?
    /// Where default handling finds credentials and where accepted session credentials are stored.
    public var credentialStore: CredentialStore?
    /// The `nc` values, shared with the session's other requests.
    public var nonceCounter: DigestNonceCounter
    /// How `Digest` answers are computed.
    public var digest: DigestAuthentication
    /// The proxy the transport uses, which names the protection space of a 407; when `nil` the request's own origin
    /// stands in for it.
    public var proxyURL: URL?
    /// The most challenges answered for one request. Default 8.
    public var maximumChallenges: Int

    private struct Attempt {
        var space: ProtectionSpace
        var credential: Credential
    }

    /// The credential last sent to a server (`false`) or proxy (`true`) and not yet known to be accepted.
    private var pending: [Bool: Attempt] = [:]
    private var refused: [ProtectionSpace: [Credential]] = [:]
    private var usedNonces: Set<String> = []
    private var challengesAnswered = 0

    /// Creates the loop for one request.
    public init(
        handler: AuthenticationChallengeHandler? = nil,
        credentialStore: CredentialStore? = nil,
        nonceCounter: DigestNonceCounter = DigestNonceCounter(),
        digest: DigestAuthentication = DigestAuthentication(),
        proxyURL: URL? = nil,
        maximumChallenges: Int = 8
    ) {
        self.handler = handler
        self.credentialStore = credentialStore
        self.nonceCounter = nonceCounter
        self.digest = digest
        self.proxyURL = proxyURL
        self.maximumChallenges = maximumChallenges
    }

    /// The step after `response` arrived for `request` (the request as it was sent, with any authorization this loop
    /// added).
    public mutating func next(after response: HTTPResponseHead, to request: HTTPRequest) async -> Step {
        let isChallenge = response.statusCode == 401 || response.statusCode == 407
        let isProxy = response.statusCode == 407
        // A credential last sent to the side (server or proxy) that is not challenging now was accepted.
        for side in [false, true] where !isChallenge || side != isProxy {
            if let accepted = pending.removeValue(forKey: side) { remember(accepted) }
        }
        guard isChallenge else { return .proceed }

        let candidates = Self.answerable(AuthenticationChallenge.challenges(in: response), body: request.body)
        guard !candidates.isEmpty else { return .stop(.noSupportedChallenge) }
        guard challengesAnswered < maximumChallenges else { return .stop(.tooManyChallenges) }
        let origin = isProxy ? (proxyURL ?? request.url) : request.url

        if let previous = pending.removeValue(forKey: isProxy) {
            if let stale = candidates.first(where: { isFreshStaleNonce($0, in: previous.space, origin: origin) }),
               let authorized = authorize(request, for: stale, with: previous.credential, in: previous.space) {
                return .retry(authorized)
            }
            refused[previous.space, default: []].append(previous.credential)
        }

        for challenge in candidates {
            let space = ProtectionSpace(challenge: challenge, url: origin)
            let proposed = credentialStore?.credential(for: space)
            let context = AuthenticationChallengeContext(
                challenge: challenge, protectionSpace: space, proposedCredential: proposed,
                previousFailureCount: refused[space]?.count ?? 0, failureResponse: response, request: request)
            let credential: Credential
            switch await handler?(context) ?? .performDefaultHandling {
            case .useCredential(let given):
                credential = given
            case .performDefaultHandling:
                guard let proposed else { return .stop(.noCredential) }
                credential = proposed
            case .cancelAuthenticationChallenge:
                return .fail(URLError(.userCancelledAuthentication, failingURL: request.url,
                                      reason: "the authentication challenge for \(space) was cancelled"))
            case .rejectProtectionSpace:
                continue
            }
            guard refused[space]?.contains(credential) != true else { return .stop(.credentialRejected) }
            guard let authorized = authorize(request, for: challenge, with: credential, in: space) else { continue }
            return .retry(authorized)
        }
        return .stop(.allProtectionSpacesRejected)
    }

    /// The challenges this loop answers, `Digest` first in server order, then `Basic`.
    static func answerable(_ challenges: [AuthenticationChallenge], body: HTTPRequestBody) -> [AuthenticationChallenge] {
        let digests = challenges.filter { challenge in
            guard let digest = DigestChallenge(challenge) else { return false }
            if digest.qopOptions.isEmpty || digest.qopOptions.contains(.auth) { return true }
            if case .stream = body { return false }
            return true
        }
        return digests + challenges.filter { $0.scheme == .basic }
    }

    private func isFreshStaleNonce(_ challenge: AuthenticationChallenge, in space: ProtectionSpace, origin: URL) -> Bool {
        guard let digest = DigestChallenge(challenge), digest.isStale, !usedNonces.contains(digest.nonce) else { return false }
        return ProtectionSpace(challenge: challenge, url: origin) == space
    }

    /// `request` with its authorization header answering `challenge`, recorded as pending; `nil` when it cannot be answered.
    private mutating func authorize(
        _ request: HTTPRequest, for challenge: AuthenticationChallenge, with credential: Credential, in space: ProtectionSpace
    ) -> HTTPRequest? {
        var request = request
        let header = challenge.isProxy ? "Proxy-Authorization" : "Authorization"
        if challenge.scheme == .basic {
            request.headers[header] = BasicAuthentication.authorization(for: credential)
        } else {
            guard let parameters = DigestChallenge(challenge),
                  let answer = digest.authorization(
                      for: parameters, credential: credential, method: request.method,
                      uri: DigestAuthentication.requestURI(of: request.url), body: request.body,
                      nonceCount: nonceCounter.next(for: parameters.nonce))
            else { return nil }
            request.headers[header] = answer.headerValue
            usedNonces.insert(parameters.nonce)
        }
        challengesAnswered += 1
        pending[challenge.isProxy] = Attempt(space: space, credential: credential)
        return request
    }

    /// Stores an accepted session credential.
    private func remember(_ attempt: Attempt) {
        guard attempt.credential.persistence == .forSession else { return }
        credentialStore?.set(attempt.credential, for: attempt.space)
    }
}
