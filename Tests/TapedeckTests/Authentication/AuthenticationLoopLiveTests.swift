import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// `AuthenticationLoop` driving a real transport against a stub server that checks the answers, as a session's loop
/// will.
@Suite struct AuthenticationLoopLiveTests {
    /// The loop a session runs: send, ask the loop, send again or deliver.
    static func send(_ request: HTTPRequest, loop: inout AuthenticationLoop) async throws -> (HTTPResponse, sends: Int) {
        var request = request
        var sends = 0
        while true {
            let response = try await CurlTransport().send(request)
            sends += 1
            switch await loop.next(after: response.head, to: request) {
            case .retry(let next): request = next
            case .proceed, .stop: return (response, sends)
            case .fail(let error): throw error
            }
        }
    }

    @Test(arguments: DigestAlgorithm.allCases)
    func digestAgainstAServerThatChecksTheAnswer(algorithm: DigestAlgorithm) async throws {
        try await withStubServer { server in
            let digest = DigestTestServer(algorithm: algorithm, qop: "auth,auth-int", userhash: algorithm == .sha256)
            server.route(.post, "/dir/index.html", handler: digest.respond)
            var request = HTTPRequest(method: .post, url: server.url("/dir/index.html?q=a%20b"))
            request.body = .data(Data("payload".utf8))
            var loop = AuthenticationLoop(handler: { _ in .useCredential(digest.credential) },
                                          digest: DigestAuthentication(prefersIntegrityProtection: algorithm == .md5Session))
            let (response, sends) = try await Self.send(request, loop: &loop)
            #expect(response.statusCode == 200, "\(String(decoding: response.data ?? Data(), as: UTF8.self))")
            #expect(sends == 2)
        }
    }

    @Test func aWrongPasswordEndsWithThe401AfterOneRetry() async throws {
        try await withStubServer { server in
            let digest = DigestTestServer()
            server.route(.get, "/private", handler: digest.respond)
            var loop = AuthenticationLoop(handler: { _ in .useCredential(Credential(user: "Mufasa", password: "wrong")) })
            let (response, sends) = try await Self.send(HTTPRequest(url: server.url("/private")), loop: &loop)
            #expect(response.statusCode == 401)
            #expect(sends == 2)
        }
    }

    @Test func basicFromTheStore() async throws {
        try await withStubServer { server in
            let expected = BasicAuthentication.authorization(for: Credential(user: "ada", password: "s3cret"))
            server.route(.get, "/basic") { request in
                if request.headers["Authorization"] == expected { return .text("hi ada") }
                var response = StubResponse.text("who?", status: 401)
                response.headers.add(name: "WWW-Authenticate", value: #"Basic realm="stub", charset="UTF-8""#)
                return response
            }
            let store = CredentialStore()
            store.set(Credential(user: "ada", password: "s3cret"), for: ProtectionSpace(url: server.url("/"), realm: "stub"))
            var loop = AuthenticationLoop(credentialStore: store)
            let (response, sends) = try await Self.send(HTTPRequest(url: server.url("/basic")), loop: &loop)
            #expect(response.data == Data("hi ada".utf8))
            #expect(sends == 2)
        }
    }
}
