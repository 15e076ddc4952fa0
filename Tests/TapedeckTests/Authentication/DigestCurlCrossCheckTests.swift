import Foundation
import Testing
import Tapedeck
import TapedeckStubServer
import TapedeckTestSupport

/// `Digest` checked against the curl command-line tool: a stub server challenges, curl answers with its own cnonce,
/// and the server accepts only if Tapedeck computes the same response from curl's parameters.
@Suite(.enabled(if: ExternalCommand.hasCurl, "the curl command-line tool is not installed: the Digest cross-check against curl is skipped"))
struct DigestCurlCrossCheckTests {
    static func curlStatus(_ url: URL, user: String, password: String, extra: [String] = []) async throws -> String {
        let curl = try #require(ExternalCommand.find("curl"))
        let output = try await ExternalCommand.run(
            curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--digest", "-u", "\(user):\(password)"] + extra + [url.absoluteString])
        return String(decoding: output.standardOutput, as: UTF8.self)
    }

    @Test(arguments: [
        (DigestAlgorithm.md5, false), (.md5Session, false), (.sha256, false), (.sha256Session, false), (.sha256, true), (.md5, true),
    ])
    func curlsAnswerIsTheOneTapedeckComputes(algorithm: DigestAlgorithm, userhash: Bool) async throws {
        try await withStubServer { server in
            let digest = DigestTestServer(algorithm: algorithm, userhash: userhash)
            server.route(.get, "/dir/index.html", handler: digest.respond)
            let url = server.url("/dir/index.html?a=1&b=%2F")
            let right = try await Self.curlStatus(url, user: "Mufasa", password: "Circle of Life")
            #expect(right == "200", "\(server.journal.entries.last.map { String(describing: $0.headers) } ?? "no request")")
            let wrong = try await Self.curlStatus(url, user: "Mufasa", password: "wrong")
            #expect(wrong == "401", "a wrong password is refused")
        }
    }
}
