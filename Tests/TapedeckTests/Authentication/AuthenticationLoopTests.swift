import Foundation
import Testing
import Tapedeck
import TapedeckTestSupport
import TapedeckCore

/// `AuthenticationLoop` without I/O: what it answers to each response, how the dispositions work, stale nonces, proxy
/// challenges, session credentials, and the bounds that stop it.
@Suite struct AuthenticationLoopTests {
    let url = URL(string: "http://127.0.0.1:8080/dir/index.html?x=1")!
    let ada = Credential(user: "ada", password: "secret")

    func head(_ status: Int, _ challenges: String...) -> HTTPResponseHead {
        let name = status == 407 ? "Proxy-Authenticate" : "WWW-Authenticate"
        return HTTPResponseHead(statusCode: status, headers: HTTPHeaders(challenges.map { (name, $0) }), url: url)
    }

    func retried(_ step: AuthenticationLoop.Step, sourceLocation: SourceLocation = #_sourceLocation) throws -> HTTPRequest {
        guard case .retry(let request) = step else {
            Issue.record("expected a retry, got \(step)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return request
    }

    func stopReason(_ step: AuthenticationLoop.Step) -> AuthenticationLoop.StopReason? {
        if case .stop(let reason) = step { return reason }
        return nil
    }

    /// A handler that answers with `credentials` in turn and records every context it saw.
    func recording(_ seen: Locked<[AuthenticationChallengeContext]>, _ dispositions: [AuthenticationDisposition]) -> AuthenticationChallengeHandler {
        { context in
            seen.withLock { seen in
                seen.append(context)
                return dispositions[min(seen.count - 1, dispositions.count - 1)]
            }
        }
    }

    @Test func aResponseThatIsNotAChallengeProceeds() async {
        var loop = AuthenticationLoop()
        guard case .proceed = await loop.next(after: head(200), to: HTTPRequest(url: url)) else {
            Issue.record("expected proceed")
            return
        }
    }

    @Test func basicWithTheHandlersCredential() async throws {
        let seen = Locked<[AuthenticationChallengeContext]>([])
        var loop = AuthenticationLoop(handler: recording(seen, [.useCredential(ada)]))
        let request = try retried(await loop.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url)))
        #expect(request.headers["Authorization"] == BasicAuthentication.authorization(for: ada))
        #expect(request.url == url)
        let context = try #require(seen.value.first)
        #expect(context.challenge.scheme == .basic)
        #expect(context.protectionSpace == ProtectionSpace(url: url, realm: "api"))
        #expect(context.previousFailureCount == 0)
        #expect(context.proposedCredential == nil)
        #expect(context.failureResponse.statusCode == 401)
    }

    @Test func defaultHandlingUsesTheStoreAndStopsWithoutACredential() async throws {
        let store = CredentialStore()
        var empty = AuthenticationLoop(credentialStore: store)
        #expect(stopReason(await empty.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url))) == .noCredential)

        store.set(ada, for: ProtectionSpace(url: url, realm: "api"))
        var loop = AuthenticationLoop(credentialStore: store)
        let request = try retried(await loop.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url)))
        #expect(request.headers["Authorization"] == BasicAuthentication.authorization(for: ada))
    }

    @Test func cancellingFailsWithUserCancelledAuthentication() async {
        var loop = AuthenticationLoop(handler: { _ in .cancelAuthenticationChallenge })
        guard case .fail(let error) = await loop.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url)) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .userCancelledAuthentication)
    }

    @Test func rejectingAProtectionSpaceMovesToTheNextChallenge() async throws {
        let seen = Locked<[AuthenticationChallengeContext]>([])
        var loop = AuthenticationLoop(handler: recording(seen, [.rejectProtectionSpace, .useCredential(ada)]))
        let response = head(401, #"Basic realm="basic""#, #"Digest realm="digest", nonce="n", qop="auth""#, "Bearer")
        let request = try retried(await loop.next(after: response, to: HTTPRequest(url: url)))
        #expect(seen.value.map(\.challenge.scheme) == [.digest, .basic], "Digest is offered first, Bearer never")
        #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)

        var rejecting = AuthenticationLoop(handler: { _ in .rejectProtectionSpace })
        #expect(stopReason(await rejecting.next(after: response, to: HTTPRequest(url: url))) == .allProtectionSpacesRejected)
    }

    @Test func onlyUnsupportedSchemesStop() async {
        var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "a", password: "b")) })
        #expect(stopReason(await loop.next(after: head(401, "Bearer realm=\"x\"", "Negotiate"), to: HTTPRequest(url: url))) == .noSupportedChallenge)
        #expect(stopReason(await loop.next(after: head(401), to: HTTPRequest(url: url))) == .noSupportedChallenge)
    }

    @Test func digestAnswersTheChallengeForTheRequestsMethodAndURI() async throws {
        let server = DigestTestServer(algorithm: .sha256, credential: ada)
        var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "ada", password: "secret")) })
        var request = HTTPRequest(method: .put, url: url)
        request = try retried(await loop.next(after: head(401, server.challenge), to: request))
        let answer = try #require(AuthenticationChallenge.parse(request.headers["Authorization"] ?? "").first)
        #expect(answer["uri"] == "/dir/index.html?x=1")
        #expect(answer["nc"] == "00000001")
        #expect(answer["algorithm"] == "SHA-256")
    }

    @Test func aRefusedCredentialIsNeverSentTwice() async throws {
        let seen = Locked<[AuthenticationChallengeContext]>([])
        let other = Credential(user: "ada", password: "second try")
        var loop = AuthenticationLoop(handler: recording(seen, [.useCredential(ada), .useCredential(ada), .useCredential(other)]))
        let challenge = head(401, #"Basic realm="api""#)
        let first = try retried(await loop.next(after: challenge, to: HTTPRequest(url: url)))
        #expect(stopReason(await loop.next(after: challenge, to: first)) == .credentialRejected)
        #expect(seen.value.map(\.previousFailureCount) == [0, 1])

        // The handler may offer another credential, which is tried; refusing that one too counts 2 failures.
        var patient = AuthenticationLoop(handler: recording(Locked([]), [.useCredential(ada), .useCredential(other), .useCredential(ada)]))
        let once = try retried(await patient.next(after: challenge, to: HTTPRequest(url: url)))
        let twice = try retried(await patient.next(after: challenge, to: once))
        #expect(twice.headers["Authorization"] == BasicAuthentication.authorization(for: other))
        #expect(stopReason(await patient.next(after: challenge, to: twice)) == .credentialRejected)
    }

    @Test func defaultHandlingStopsAfterTheStoredCredentialIsRefused() async throws {
        let store = CredentialStore()
        store.set(ada, for: ProtectionSpace(url: url, realm: nil))
        var loop = AuthenticationLoop(credentialStore: store)
        let challenge = head(401, #"Digest realm="api", nonce="n1", qop="auth""#)
        let first = try retried(await loop.next(after: challenge, to: HTTPRequest(url: url)))
        #expect(stopReason(await loop.next(after: challenge, to: first)) == .credentialRejected)
    }

    @Test func aStaleNonceIsRetriedWithTheSameCredentialWithoutAsking() async throws {
        let seen = Locked<[AuthenticationChallengeContext]>([])
        var loop = AuthenticationLoop(handler: recording(seen, [.useCredential(ada)]))
        let first = try retried(await loop.next(after: head(401, #"Digest realm="api", nonce="old", qop="auth""#), to: HTTPRequest(url: url)))
        let stale = head(401, #"Digest realm="api", nonce="new", qop="auth", stale=true"#)
        let second = try retried(await loop.next(after: stale, to: first))
        #expect(seen.value.count == 1, "the handler is not asked again for a stale nonce")
        let answer = try #require(AuthenticationChallenge.parse(second.headers["Authorization"] ?? "").first)
        #expect(answer["nonce"] == "new")
        #expect(answer["nc"] == "00000001")
        #expect(answer["username"] == "ada")

        // stale=true with a nonce already used is a refusal, not a reason to go round again.
        #expect(stopReason(await loop.next(after: stale, to: second)) == .credentialRejected)
        #expect(seen.value.map(\.previousFailureCount) == [0, 1])
    }

    @Test func theNonceCountGrowsWhenANonceIsReusedAcrossRequests() async throws {
        let counter = DigestNonceCounter()
        let challenge = head(401, #"Digest realm="api", nonce="shared", qop="auth""#)
        var counts: [String?] = []
        for _ in 0..<3 {
            var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "ada", password: "secret")) }, nonceCounter: counter)
            let request = try retried(await loop.next(after: challenge, to: HTTPRequest(url: url)))
            counts.append(AuthenticationChallenge.parse(request.headers["Authorization"] ?? "").first?["nc"])
        }
        #expect(counts == ["00000001", "00000002", "00000003"])
    }

    @Test func aProxyChallengeIsAnsweredWithProxyAuthorizationForTheProxysSpace() async throws {
        let seen = Locked<[AuthenticationChallengeContext]>([])
        let proxy = URL(string: "http://proxy.internal:3128")!
        let store = CredentialStore()
        var loop = AuthenticationLoop(handler: recording(seen, [.useCredential(ada), .useCredential(Credential(user: "srv", password: "x"))]),
                                      credentialStore: store, proxyURL: proxy)
        let throughProxy = try retried(await loop.next(after: head(407, #"Basic realm="corp""#), to: HTTPRequest(url: url)))
        #expect(throughProxy.headers["Proxy-Authorization"] == BasicAuthentication.authorization(for: ada))
        #expect(throughProxy.headers["Authorization"] == nil)
        #expect(seen.value.first?.protectionSpace == ProtectionSpace(url: proxy, realm: "corp", isProxy: true))

        // The proxy let it through and the server challenges: the proxy credential was accepted and is kept.
        let both = try retried(await loop.next(after: head(401, #"Basic realm="api""#), to: throughProxy))
        #expect(both.headers["Proxy-Authorization"] == BasicAuthentication.authorization(for: ada))
        #expect(both.headers["Authorization"] == BasicAuthentication.authorization(for: Credential(user: "srv", password: "x")))
        #expect(store.credential(for: ProtectionSpace(url: proxy, realm: "corp", isProxy: true)) == ada)
    }

    @Test func sessionCredentialsAreStoredOnceAcceptedAndOthersNever() async throws {
        let store = CredentialStore()
        var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "ada", password: "secret")) }, credentialStore: store)
        let request = try retried(await loop.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url)))
        #expect(store.allCredentials.isEmpty, "not before the server accepted it")
        _ = await loop.next(after: head(200), to: request)
        #expect(store.credential(for: ProtectionSpace(url: url, realm: "api")) == ada)

        let transient = CredentialStore()
        var once = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "t", password: "p", persistence: .none)) },
                                      credentialStore: transient)
        let sent = try retried(await once.next(after: head(401, #"Basic realm="api""#), to: HTTPRequest(url: url)))
        _ = await once.next(after: head(200), to: sent)
        #expect(transient.allCredentials.isEmpty)
    }

    @Test func atMostMaximumChallengesAreAnswered() async throws {
        let attempts = Locked(0)
        var loop = AuthenticationLoop(handler: { _ in
            .useCredential(Credential(user: "ada", password: "guess \(attempts.withLock { $0 += 1; return $0 })"))
        }, maximumChallenges: 3)
        var request = HTTPRequest(url: url)
        var step = await loop.next(after: head(401, #"Basic realm="api""#), to: request)
        var retries = 0
        while case .retry(let next) = step {
            retries += 1
            request = next
            step = await loop.next(after: head(401, #"Basic realm="api""#), to: request)
        }
        #expect(retries == 3)
        #expect(stopReason(step) == .tooManyChallenges)
    }

    @Test func authIntOnlyWithAStreamBodyCannotBeAnswered() async {
        var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "ada", password: "secret")) })
        var request = HTTPRequest(method: .post, url: url)
        request.body = .stream(HTTPBodyStream(length: nil) { AsyncThrowingStream<Data, any Error> { $0.finish() } })
        #expect(stopReason(await loop.next(after: head(401, #"Digest realm="r", nonce="n", qop="auth-int""#), to: request)) == .noSupportedChallenge)
    }
}
