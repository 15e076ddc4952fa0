import Foundation
import TapedeckCore

/// Applies an ``Authenticator``'s credential to every request and refreshes it when the server refuses it (Alamofire's
/// `AuthenticationInterceptor`, async).
///
/// However many requests fail with a refused credential at once, **one** refresh runs; the others wait for it and are
/// then retried with its result. A request that failed with a credential older than the current one is retried with
/// the current one at once, without another refresh. A credential whose ``AuthenticationCredential/requiresRefresh``
/// is true is refreshed (once, likewise) before it is applied. More than ``RefreshWindow/maximumRefreshes`` refreshes
/// within ``RefreshWindow/interval`` fail with ``AuthenticationInterceptorError/excessiveRefresh``.
///
/// ```swift
/// let authentication = AuthenticationInterceptor(authenticator: OAuthAuthenticator(), credential: savedToken)
/// let loop = InterceptorLoop(interceptor: authentication)
/// let response = try await loop.send(request) { try await transport.send($0) }
/// ```
public final class AuthenticationInterceptor<A: Authenticator>: RequestInterceptor {
    /// A limit on refreshes, against a server that refuses every fresh credential.
    public struct RefreshWindow: Hashable, Sendable {
        /// The span refreshes are counted over.
        public var interval: Duration
        /// The most refreshes allowed within ``interval``.
        public var maximumRefreshes: Int

        /// Creates a window: by default 5 refreshes in 30 s.
        public init(interval: Duration = .seconds(30), maximumRefreshes: Int = 5) {
            self.interval = interval
            self.maximumRefreshes = maximumRefreshes
        }
    }

    private struct State {
        var credential: A.Token?
        /// Increases each time the credential is replaced.
        var generation: UInt64 = 0
        var refresh: Task<A.Token, any Error>?
        var refreshTimes: [Date] = []
    }

    /// Applies, refreshes and judges the credential.
    public let authenticator: A
    /// The refresh limit, or `nil` for none.
    public let refreshWindow: RefreshWindow?
    /// What the refresh window is measured against.
    public let clock: any WallClock
    private let state: Locked<State>

    /// Creates an interceptor.
    public init(authenticator: A, credential: A.Token? = nil, refreshWindow: RefreshWindow? = RefreshWindow(),
                clock: any WallClock = SystemWallClock()) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        self.clock = clock
        state = Locked(State(credential: credential))
    }

    /// The current credential; setting it replaces it (a refresh in flight still delivers its own result).
    public var credential: A.Token? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.credential = newValue; $0.generation &+= 1 } }
    }

    public func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
        var credential: A.Token
        while true {
            let snapshot = state.withLock { ($0.credential, $0.generation, $0.refresh) }
            if let refresh = snapshot.2 {
                credential = try await refresh.value
                break
            }
            guard let current = snapshot.0 else { throw AuthenticationInterceptorError.missingCredential }
            guard current.requiresRefresh else {
                credential = current
                break
            }
            if let refresh = try startRefresh(of: current, at: snapshot.1) {
                credential = try await refresh.value
                break
            }
        }
        var request = request
        authenticator.apply(credential, to: &request)
        return request
    }

    public func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        guard let response = failure.response,
              authenticator.didRequest(request, with: response, failDueToAuthenticationError: failure.error)
        else { return .doNotRetry }
        while true {
            let snapshot = state.withLock { ($0.credential, $0.generation, $0.refresh) }
            if let refresh = snapshot.2 { return await Self.outcome(of: refresh) }
            guard let current = snapshot.0 else { return .doNotRetryWithError(AuthenticationInterceptorError.missingCredential) }
            guard authenticator.isRequest(request, authenticatedWith: current) else { return .retry }
            do {
                if let refresh = try startRefresh(of: current, at: snapshot.1) { return await Self.outcome(of: refresh) }
            } catch {
                return .doNotRetryWithError(error)
            }
        }
    }

    /// Starts refreshing `credential` unless the state moved on since it was read at `generation` (then `nil`: look
    /// again) or another refresh started (then that one).
    private func startRefresh(of credential: A.Token, at generation: UInt64) throws -> Task<A.Token, any Error>? {
        let now = clock.now
        return try state.withLock { state -> Task<A.Token, any Error>? in
            if let running = state.refresh { return running }
            guard state.generation == generation else { return nil }
            if let window = refreshWindow {
                let start = now.addingTimeInterval(-RetryBackoff.seconds(window.interval))
                state.refreshTimes.removeAll { $0 < start }
                guard state.refreshTimes.count < window.maximumRefreshes else {
                    throw AuthenticationInterceptorError.excessiveRefresh
                }
                state.refreshTimes.append(now)
            }
            // Unstructured: the refresh belongs to every request waiting for it, not to the one that started it, so
            // cancelling that one does not cancel the others' refresh.
            let refresh = Task { [authenticator, self] in
                do {
                    let fresh = try await authenticator.refresh(credential)
                    self.state.withLock {
                        $0.credential = fresh
                        $0.generation &+= 1
                        $0.refresh = nil
                    }
                    return fresh
                } catch {
                    self.state.withLock { $0.refresh = nil }
                    throw error
                }
            }
            state.refresh = refresh
            return refresh
        }
    }

    private static func outcome(of refresh: Task<A.Token, any Error>) async -> RetryDecision {
        do {
            _ = try await refresh.value
            return .retry
        } catch {
            return .doNotRetryWithError(error)
        }
    }
}
