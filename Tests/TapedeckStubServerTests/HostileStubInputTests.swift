import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Hostile input at the stub server (issue H9): regular expressions that backtrack catastrophically on request data,
/// stub files that name files outside their folder, and statuses a stub built in Swift cannot answer with.
@Suite struct HostileStubInputTests {
    /// Exponential for a backtracking engine: 2^40 ways to split the a's before the `b` rules each out.
    static let catastrophic = String(repeating: "a", count: 40) + "b"

    @Test func aCatastrophicPatternGivesUpAtTheStepLimitAndSaysSo() {
        let regex: StubRegex = "(a+)+"
        #expect(regex.evaluate(Self.catastrophic)
                    == .gaveUp("gave up after \(RegexStepLimit.steps) backtracking steps (the step limit of one match)"))
        #expect(!regex.matchesWhole(Self.catastrophic))
        #expect(regex.evaluate(String(repeating: "a", count: 40)) == .found)
        #expect(regex.evaluate("aab") == .notFound)
    }

    @Test func theNearMissOfAPatternThatGaveUpNamesTheLimit() {
        let regex: StubRegex = "(a+)+"
        let pattern = RequestPattern(.get, "/search").query("q", .matches(regex))
        let request = RecordedRequest(method: .get, path: "/search", query: "q=" + Self.catastrophic)
        let differences = pattern.differences(request).map(\.description)
        #expect(differences.count == 1)
        #expect(differences.first?.contains("gave up after \(RegexStepLimit.steps) backtracking steps") == true,
                "\(differences)")
        // A negative condition that gave up proves nothing, so it does not hold either.
        let negative = RequestPattern(.get, "/search").query("q", .doesNotMatch(regex))
        #expect(!negative.matches(request))
    }

    @Test func aBodyFileStaysInsideTheStubFilesFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stubs = directory.url.appendingPathComponent("stubs")
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: stubs.appendingPathComponent("inside.txt"))
        try Data("secret".utf8).write(to: directory.file("secret.txt"))
        try FileManager.default.createSymbolicLink(at: stubs.appendingPathComponent("link.txt"), withDestinationURL: directory.file("secret.txt"))
        func definition(_ name: String) -> Data {
            Data(#"{"request": {"path": "/f"}, "response": {"bodyFile": "\#(name)"}}"#.utf8)
        }
        let inside = try Stub.decodeList(definition("inside.txt"), filesDirectory: stubs)
        guard case .response(let response) = inside.first?.responder, case .file(let file) = response.body else {
            Issue.record("no file body: \(inside)")
            return
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "inside")
        for name in ["../secret.txt", "link.txt", directory.file("secret.txt").path] {
            let error = #expect(throws: StubDefinitionError.self) { try Stub.decodeList(definition(name), filesDirectory: stubs) }
            let text = error?.description ?? ""
            #expect(text.contains("response.bodyFile") && text.contains("\"\(name)\""), "\(text)")
            #expect(text.contains("leads out of") || text.contains("is an absolute path"), "\(text)")
        }
        // Stubs posted to the admin API have no folder: they name no files.
        let admin = #expect(throws: StubDefinitionError.self) { try Stub.decodeList(definition("inside.txt")) }
        #expect(admin?.description.contains("stubs from the admin API name no files") == true, "\(String(describing: admin))")
    }
}

extension OnLoopback {
    @Suite struct HostileStubInputServerTests {
        /// A stub built in Swift with a 1xx would make libmicrohttpd send `100 Continue` and hold the connection; it
        /// answers a 500 that names the stub and the problem instead, and the request is in the journal.
        @Test func aStubWithAnInformationalStatusAnswersA500ThatNamesIt() async throws {
            try await withStubServer { server in
                server.add(Stub(id: "switching", RequestPattern(.get, "/switch"), response: StubResponse(status: 101)))
                server.route(.get, "/odd", handler: { _ in StubResponse(status: 1000) })
                let switching = try await CurlTransport().send(HTTPRequest(url: server.url("/switch"), timeoutInterval: 60))
                #expect(switching.statusCode == 500)
                #expect(switching.text.hasPrefix("stub switching (GET /switch) cannot answer: status 101 is an informational status"),
                        "\(switching.text)")
                let odd = try await CurlTransport().send(HTTPRequest(url: server.url("/odd"), timeoutInterval: 60))
                #expect(odd.statusCode == 500)
                #expect(odd.text.contains("cannot answer: status must be between 200 and 599, got 1000"), "\(odd.text)")
                #expect(server.journal.entries.first { $0.path == "/switch" }?.matchedStubID == "switching")
            }
        }

        /// The socket-pair entry the `stub-server-http` fuzz target uses is served like an accepted connection.
        @Test func aSocketPairConnectionIsServedLikeATCPOne() async throws {
            try await withStubServer { server in
                server.route(.get, "/ping", response: .text("pong"))
                let socket = try #require(server.socketPairConnection())
                defer { close(socket) }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let request = Array("GET /ping HTTP/1.1\r\nHost: pair\r\n\r\n".utf8)
                #expect(send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count)
                shutdown(socket, Int32(SHUT_WR))
                var answer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(socket, &chunk, chunk.count, 0)
                    guard count > 0 else { break }
                    answer += chunk[0..<count]
                }
                let text = String(decoding: answer, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
                #expect(text.hasSuffix("pong"), "\(text)")
            }
        }
    }
}
