import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
@testable import TapedeckStubServer

/// The pure mappings behind cassette serving and the recording proxy, without sockets.
@Suite struct RecordedAnswerTests {
    private func fault(_ code: URLError.Code) -> TransportFault? {
        if case .fault(let fault) = RecordedAnswer.action(for: Interaction.Failure(code: code.rawValue, message: "m")) { return fault }
        return nil
    }

    @Test func recordedErrorsBecomeTheFaultsThatReproduceThem() {
        #expect(fault(.networkConnectionLost) == .reset)
        #expect(fault(.badServerResponse) == .closeWithoutResponse)
        #expect(fault(.timedOut) == .noResponse)
    }

    @Test func anErrorNoServerCanReproduceIsA502NamingIt() {
        guard case .respond(let response) = RecordedAnswer.action(for: Interaction.Failure(code: -1004, message: "Could not\nconnect")) else {
            Issue.record("expected a response")
            return
        }
        #expect(response.status == 502)
        #expect(response.headers[RecordedAnswer.recordedErrorHeader] == "NSURLErrorDomain -1004: Could not connect")
    }

    @Test func aBodyTheRecorderDecodedIsGzippedAgainAndHopByHopHeadersGo() {
        let recorded = Interaction.Response(statusCode: 200, headers: ["Content-Encoding": "gzip", "Connection": "close, X-Hop",
                                                                       "X-Hop": "1", "Content-Length": "99", "X-Kept": "yes"],
                                            body: CassetteBody(Data("hello".utf8)))
        let response = RecordedAnswer.response(recorded, index: 0, cassette: URL(fileURLWithPath: "/tmp/c.json"))
        guard case .data(let data) = response.body else {
            Issue.record("expected an in-memory body")
            return
        }
        #expect(data.prefix(2) == Data([0x1F, 0x8B]))
        #expect(response.headers.map(\.name) == ["Content-Encoding", "X-Kept"])
        let alreadyGzip = Interaction.Response(statusCode: 200, headers: ["Content-Encoding": "gzip"], body: CassetteBody(data))
        #expect(!RecordedAnswer.needsGzip(alreadyGzip, bytes: data), "raw gzip bytes are sent as they are")
    }

    @Test func aMissingSidecarIsA500NamingIt() {
        let recorded = Interaction.Response(statusCode: 200, body: CassetteBody(sidecar: "c.bodies/gone.bin", byteCount: 10))
        let response = RecordedAnswer.response(recorded, index: 3, cassette: URL(fileURLWithPath: "/tmp/nowhere/c.json"))
        #expect(response.status == 500)
        guard case .data(let data) = response.body else { return }
        #expect(String(decoding: data, as: UTF8.self).contains("/tmp/nowhere/c.bodies/gone.bin of interaction #3"))
    }

    @Test func originsAreNormalized() {
        #expect(ServedCassette.origin(of: "http://User:pw@Example.COM:80/a?b")! == ("example.com", "http://Example.COM:80"))
        #expect(ServedCassette.origin(of: "https://[::1]:8443")! == ("[::1]:8443", "https://[::1]:8443"))
        #expect(ServedCassette.origin(of: "not a url") == nil)
    }

    @Test func theProxyJoinsPathsAndDropsConnectionHeaders() throws {
        let base = URL(string: "http://127.0.0.1:9/api/")!
        #expect(ProxyMessage.upstreamURL(base: base, path: "/v1/x", query: "a=1")?.absoluteString == "http://127.0.0.1:9/api/v1/x?a=1")
        let incoming = RecordedRequest(method: .post, path: "/v1/x", headers: [
            "Host": "proxy", "Connection": "keep-alive", "Content-Length": "2", "Expect": "100-continue", "Authorization": "Bearer a",
            "Accept-Encoding": "gzip",
        ], body: Data("hi".utf8))
        let request = try #require(ProxyMessage.upstreamRequest(for: incoming, base: base, timeout: 5))
        #expect(request.headers.map(\.name) == ["Authorization", "Accept-Encoding"])
        #expect(request.redirectPolicy == .none)
        #expect(ProxyMessage.problem(with: URL(string: "http://h/x?q=1")!) != nil)
        #expect(ProxyMessage.problem(with: URL(string: "https://h:8443/base")!) == nil)
    }
}
