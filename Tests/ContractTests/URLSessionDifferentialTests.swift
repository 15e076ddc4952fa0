import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession

/// The URLSession door against URLSession itself: each flow runs through plain FoundationNetworking `URLSession`
/// (its own HTTP protocol, live), through the adapter live over libcurl, and through the adapter from the cassette
/// the adapter recorded. All three must give the same status, final URL and answer.
///
/// What an httpbin answer echoes of the client's own header fields differs between the two clients (User-Agent,
/// Accept-Encoding), so answers are compared by the members that say what the flow did: the cookies the server saw,
/// the URL, method and body it was asked with, and whether it authenticated.
@Suite struct URLSessionDifferentialTests {
    /// The flows plain FoundationNetworking completes: it cannot answer Digest (it stops the process), and URLSession
    /// retries nothing; the cache flow needs the adapter's `HTTPCache`, which URLSession's `urlCache` is not.
    static let flows = SessionFlow.all.filter { !$0.name.hasPrefix("Digest") && !$0.cached && !$0.retries }

    @Test(arguments: flows)
    func theAdapterDoesWhatURLSessionDoes(_ flow: SessionFlow) async throws {
        try await withTemporaryDirectory { directory in
            let server = try flow.server()
            let plain = try await Self.run(flow, configuration: .ephemeral, server: server)

            let cassette = directory.cassette()
            let recording = try openCassette(cassette, mode: .all, upstream: server.transport(),
                                             configuration: CassetteConfiguration(redaction: .disabled))
            let live = try await Self.run(flow, configuration: .tapedeck(transport: recording), server: server)
            try recording.finish()
            server.stop()
            let replayed = try await Self.run(flow, configuration: .tapedeck(transport: try openCassette(cassette, mode: .replay)),
                                              server: server)

            #expect(plain.status == flow.expectedStatus)
            for (door, outcome) in [("adapter, live", live), ("adapter, replayed", replayed)] {
                #expect(outcome.status == plain.status, "\(door)")
                #expect(outcome.url == plain.url, "\(door)")
                #expect(flow.check(outcome.body), "\(door): \(String(decoding: outcome.body, as: UTF8.self))")
            }
            let compare = {
                #expect(flow.check(plain.body), "plain URLSession: \(String(decoding: plain.body, as: UTF8.self))")
                #expect(Self.whatTheServerSaw(live.body) == Self.whatTheServerSaw(plain.body))
                #expect(Self.whatTheServerSaw(replayed.body) == Self.whatTheServerSaw(plain.body))
            }
            if flow.path.hasSuffix("/307") || flow.path.hasSuffix("/308") {
                // Fails if FoundationNetworking is fixed: then the adapter and URLSession agree here too.
                withKnownIssue("FoundationNetworking sends the 307/308 hop of a POST without its body (it clears the task's body before the next transfer); the adapter keeps it, as Darwin's URLSession and RFC 9110 do") {
                    compare()
                }
            } else {
                compare()
            }
        }
    }

    private static func run(_ flow: SessionFlow, configuration: URLSessionConfiguration, server: StubServer) async throws -> DoorOutcome {
        // FoundationNetworking's own protocol drops cookies on a redirect hop when the session has a delegate, so a
        // delegate is there only for the flows that need one (a challenge, no redirect).
        let delegate = flow.credential.map { URLCredentialAnswerer(credential: $0) }
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: flow.path, relativeTo: server.url("/"))!.absoluteURL)
        request.httpMethod = flow.method.rawValue
        request.httpBody = flow.body
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return DoorOutcome(status: http.statusCode, url: http.url, body: data)
    }

    /// The members of an httpbin answer that do not depend on the client's own header fields.
    private static func whatTheServerSaw(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return String(decoding: body, as: UTF8.self)
        }
        let kept = object.filter { ["cookies", "url", "method", "data", "authenticated", "user", "args"].contains($0.key) }
        let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}

/// A URLSession delegate that answers a challenge with one credential.
private final class URLCredentialAnswerer: NSObject, URLSessionTaskDelegate, Sendable {
    let credential: Credential

    init(credential: Credential) { self.credential = credential }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.useCredential, URLCredential(user: credential.user, password: credential.password, persistence: .none))
    }
}
