import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckSession

/// What the URLSession adapter asks of the task's session, as URLSession's own HTTP protocol asks it: the task
/// delegate decides redirects (`willPerformHTTPRedirection`) and challenges (`didReceive challenge`), and hears of
/// upload progress (`didSendBodyData`), each call made on the session's `delegateQueue`; the configuration gives
/// the cookie storage and credential storage.
///
/// FoundationNetworking does not show a custom protocol its task's session; it is read from the task by reflection
/// (its stored `session` property). When that layout is not found the bridge has no session: redirects are followed,
/// challenges get default handling, and the configuration captured when the protocol was bound is used.
struct URLSessionDelegateBridge: @unchecked Sendable {
    // URLSessionTask and URLSession lock their own state; they are not marked Sendable.
    let task: URLSessionTask?
    let session: URLSession?
    /// Whether the task hands its body to a delegate as it arrives (a task made without a completion handler), so
    /// that each chunk may be its own `didLoad`. FoundationNetworking keeps only the last `didLoad` for a task made
    /// with a completion handler (`data(for:)` included), which must get its body in one piece.
    let streamsBody: Bool

    /// Made in `startLoading`, which FoundationNetworking calls on the task's work queue: the queue on which the
    /// session's task registry may be read.
    init(task: URLSessionTask?) {
        let session = task.flatMap(Self.session(of:))
        self.task = task
        self.session = session
        if let task, let session { streamsBody = Self.callsDelegate(task, in: session) } else { streamsBody = false }
    }

    /// Whether `session` registered `task` to call its delegate (FoundationNetworking's `_TaskRegistry` behaviour
    /// `callDelegate`, its one case without a payload) rather than a completion handler. `false` for a session with
    /// no delegate, and when that layout is not found.
    static func callsDelegate(_ task: URLSessionTask, in session: URLSession) -> Bool {
        #if canImport(FoundationNetworking)
        guard session.delegate != nil, let registry = StoredProperty.value("taskRegistry", of: session),
              let behaviours = StoredProperty.value("behaviours", of: registry) else { return false }
        for entry in Mirror(reflecting: behaviours).children {
            let pair = Mirror(reflecting: entry.value).children
            guard pair.count == 2, pair.first?.value as? Int == task.taskIdentifier,
                  let behaviour = pair.dropFirst().first?.value else { continue }
            let cases = Mirror(reflecting: behaviour)
            return cases.displayStyle == .enum && cases.children.isEmpty
        }
        return false
        #else
        return true
        #endif
    }

    /// The session that owns `task`: FoundationNetworking keeps it in the task's stored `session` property.
    static func session(of task: URLSessionTask) -> URLSession? {
        #if canImport(FoundationNetworking)
        return StoredProperty.value("session", of: task) as? URLSession
        #else
        return nil
        #endif
    }

    /// The delegate URLSession itself would ask: the task's (FoundationNetworking falls back to the session's).
    private var delegate: URLSessionTaskDelegate? {
        task?.delegate ?? (session?.delegate as? URLSessionTaskDelegate)
    }

    /// Asks the delegate about a redirect; without one the proposed request is followed.
    func redirect(_ head: HTTPResponseHead, proposed: TapedeckCore.HTTPRequest) async -> TapedeckCore.HTTPRequest? {
        guard let session, let task, let delegate else { return proposed }
        let response = URLRequestConversion.urlResponse(from: head)
        let newRequest = URLRequestConversion.urlRequest(from: proposed)
        let decided: URLRequest? = await withCheckedContinuation { continuation in
            session.delegateQueue.addOperation {
                delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: newRequest) {
                    continuation.resume(returning: $0)
                }
            }
        }
        guard let decided else { return nil }
        return decided == newRequest ? proposed : URLRequestConversion.httpRequest(decided, replacing: proposed)
    }

    /// Asks the delegate about a challenge; default handling looks in the configuration's credential storage.
    func challenge(_ context: AuthenticationChallengeContext) async -> AuthenticationDisposition {
        let space = Self.protectionSpace(for: context)
        let stored = (session?.configuration.urlCredentialStorage).flatMap { Self.storedCredential(in: $0, for: space) }
        guard let session, let task, let delegate else { return Self.defaultHandling(stored) }
        let challenge = URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: stored, previousFailureCount: context.previousFailureCount,
            failureResponse: URLRequestConversion.urlResponse(from: context.failureResponse), error: nil,
            sender: IgnoredChallengeSender()
        )
        let (disposition, credential) = await withCheckedContinuation { continuation in
            session.delegateQueue.addOperation {
                delegate.urlSession(session, task: task, didReceive: challenge) { continuation.resume(returning: ($0, $1)) }
            }
        }
        switch disposition {
        case .useCredential:
            guard let credential, let user = credential.user else { return .performDefaultHandling }
            return .useCredential(Credential(user: user, password: credential.password ?? "", persistence: .none))
        case .performDefaultHandling: return Self.defaultHandling(stored)
        case .cancelAuthenticationChallenge: return .cancelAuthenticationChallenge
        case .rejectProtectionSpace: return .rejectProtectionSpace
        @unknown default: return .performDefaultHandling
        }
    }

    /// The credential `storage` keeps for `space`: its default one, else the first by user name (as
    /// FoundationNetworking's own protocol picks). The spaces are compared field by field, because
    /// FoundationNetworking's `URLProtectionSpace` is equal only to itself, so a lookup keyed by another instance
    /// finds nothing.
    static func storedCredential(in storage: URLCredentialStorage, for space: URLProtectionSpace) -> URLCredential? {
        if let found = storage.defaultCredential(for: space) { return found }
        for (candidate, credentials) in storage.allCredentials where sameSpace(candidate, space) {
            if let user = credentials.keys.sorted().first { return credentials[user] }
        }
        return nil
    }

    private static func sameSpace(_ a: URLProtectionSpace, _ b: URLProtectionSpace) -> Bool {
        a.host.lowercased() == b.host.lowercased() && a.port == b.port && a.protocol?.lowercased() == b.protocol?.lowercased()
            && a.realm == b.realm && a.authenticationMethod == b.authenticationMethod && a.isProxy() == b.isProxy()
    }

    private static func defaultHandling(_ stored: URLCredential?) -> AuthenticationDisposition {
        guard let stored, let user = stored.user else { return .performDefaultHandling }
        return .useCredential(Credential(user: user, password: stored.password ?? "", persistence: .none))
    }

    private static func protectionSpace(for context: AuthenticationChallengeContext) -> URLProtectionSpace {
        let space = context.protectionSpace
        let method = context.challenge.scheme == .digest ? NSURLAuthenticationMethodHTTPDigest : NSURLAuthenticationMethodHTTPBasic
        return URLProtectionSpace(host: space.host, port: space.port, protocol: space.urlScheme, realm: space.realm,
                                  authenticationMethod: method)
    }

    /// Tells the delegate how much of the body has been sent, as `didSendBodyData` does.
    func sentBody(bytes: Int64, total: Int64, expected: Int64) {
        guard let session, let task, let delegate, bytes > 0 else { return }
        session.delegateQueue.addOperation {
            delegate.urlSession(session, task: task, didSendBodyData: bytes, totalBytesSent: total,
                                totalBytesExpectedToSend: expected)
        }
    }
}

/// The sender a `URLAuthenticationChallenge` must name; the adapter takes the delegate's answer from its completion
/// handler, so nothing is done here.
private final class IgnoredChallengeSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
