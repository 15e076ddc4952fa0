import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/a/b?x=1&y=2", "/a/b", "x=1&y=2" as String?),
        ("/plain", "/plain", nil),
        ("/empty?", "/empty", ""),
        ("/frag?q=1#part", "/frag", "q=1"),
        ("/a%20b?c=%2F", "/a%20b", "c=%2F"),
    ])
    func targetsSplitIntoPathAndRawQuery(target: String, path: String, query: String?) {
        let split = IncomingRequest.split(target: target)
        #expect(split.path == path)
        #expect(split.query == query)
    }
}

@Suite struct RouteTableTests {
    private func request(_ method: HTTPMethod, _ path: String) -> RecordedRequest {
        RecordedRequest(method: method, path: path)
    }

    private func answer(_ registry: StubRegistry, _ request: RecordedRequest) -> StubResponse {
        registry.resolve(request)?.response(to: request) ?? registry.notFoundResponse(for: request)
    }

    @Test func theLatestMatchingRouteWins() {
        let registry = StubRegistry()
        registry.add(StubRoute(method: .get, path: "/x") { _ in .text("first") }.stub)
        registry.add(StubRoute(method: .get, path: "/x") { _ in .text("second") }.stub)
        registry.add(StubRoute(method: .post, path: "/x") { _ in .text("post") }.stub)
        guard case .data(let body) = answer(registry, request(.get, "/x")).body else {
            Issue.record("expected a data body")
            return
        }
        #expect(body == Data("second".utf8))
    }

    @Test func anyMethodRoutesMatchEveryMethodAndDecodedPathsMatch() {
        let registry = StubRegistry()
        registry.add(StubRoute(method: nil, path: "/a b") { _ in .text("any") }.stub)
        #expect(answer(registry, request(.delete, "/a%20b")).status == 200)
        #expect(answer(registry, request(.get, "/a b")).status == 200)
    }

    @Test func anUnmatchedRequestGetsA404ListingTheRoutes() {
        let registry = StubRegistry()
        registry.add(StubRoute(method: .get, path: "/known") { _ in .text("k") }.stub)
        let response = answer(registry, request(.post, "/unknown"))
        #expect(response.status == 404)
        guard case .data(let body) = response.body else {
            Issue.record("expected a data body")
            return
        }
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("No stub matches POST /unknown"))
        #expect(text.contains("GET /known"))
    }
}

@Suite struct RequestJournalTests {
    @Test func entriesAreNumberedAndCapped() {
        let journal = RequestJournal(capacity: 3)
        for index in 0..<5 {
            journal.append(RecordedRequest(method: .get, path: "/\(index)"))
        }
        #expect(journal.entries.map(\.path) == ["/2", "/3", "/4"])
        #expect(journal.entries.map(\.sequenceNumber) == [3, 4, 5])
        #expect(journal.droppedCount == 2)
        for index in 5..<12 {
            journal.append(RecordedRequest(method: .get, path: "/\(index)"))
        }
        #expect(journal.entries.map(\.path) == ["/9", "/10", "/11"], "the ring keeps the newest, oldest first, after wrapping")
        journal.removeAll()
        #expect(journal.entries.isEmpty)
        #expect(journal.append(RecordedRequest(method: .get, path: "/next")).sequenceNumber == 13)
    }
}

@Suite struct IncomingRequestTests {
    @Test func longBodiesAreTruncatedButCountedAndHashedInFull() {
        let request = IncomingRequest(rawTarget: "/u?x=1", bodyLimit: 4)
        Data("hello".utf8).withUnsafeBytes { request.appendBody($0) }
        Data(" world".utf8).withUnsafeBytes { request.appendBody($0) }
        let recorded = request.recorded()
        #expect(recorded.body == Data("hell".utf8))
        #expect(recorded.bodyLength == 11)
        #expect(recorded.bodyTruncated)
        // sha256("hello world")
        #expect(recorded.bodySHA256 == "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")
        #expect(recorded.path == "/u")
        #expect(recorded.query == "x=1")
    }
}

@Suite struct GeneratedBytesTests {
    @Test func thePatternIsContinuousAcrossAnyOffset() {
        let whole = StubBody.generatedBytes(from: 0, count: 1000)
        #expect(whole.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        let middle = StubBody.generatedBytes(from: 500, count: 300)
        #expect(middle == whole[500..<800])
    }
}

@Suite struct PathTemplateTests {
    @Test(arguments: [
        ("/bytes/1024", "/bytes/{n}", true),
        ("/bytes", "/bytes/{n}", false),
        ("/bytes/", "/bytes/{n}", false),
        ("/bytes/1/2", "/bytes/{n}", false),
        ("/users/7/posts/9", "/users/{id}/posts/{post}", true),
        ("/exact", "/exact", true),
        ("/exact/", "/exact", false),
    ])
    func templatesMatchOneSegmentPerPlaceholder(path: String, template: String, matches: Bool) {
        #expect(StubRoute.path(path, matches: template) == matches)
    }
}

@Suite struct ByteRangeTests {
    @Test func singleRangesParse() {
        #expect(ByteRange(header: "bytes=10-", totalLength: 100) == ByteRange(header: "bytes=10-99", totalLength: 100))
        #expect(ByteRange(header: "bytes=10-", totalLength: 100)?.first == 10)
        #expect(ByteRange(header: "bytes=0-1000", totalLength: 100)?.last == 99)
        #expect(ByteRange(header: "bytes=-30", totalLength: 100)?.first == 70)
        #expect(ByteRange(header: "bytes=1-2,5-6", totalLength: 100) == nil)
        #expect(ByteRange(header: "items=1-2", totalLength: 100) == nil)
        #expect(ByteRange(header: "bytes=5-2", totalLength: 100) == nil)
    }
}
