import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct StubIndexTests {
    private func text(_ response: StubResponse) -> String {
        guard case .data(let data) = response.body else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    private func answer(_ registry: StubRegistry, _ request: RecordedRequest) -> String {
        registry.resolve(request).map { text($0.response(to: request)) } ?? "404"
    }

    @Test func theSmallestPriorityNumberWinsThenTheMostRecent() {
        let registry = StubRegistry()
        registry.add(Stub(RequestPattern(.get, "/items/{id}"), priority: 1, response: .text("template, priority 1")))
        registry.add(Stub(RequestPattern(.get, "/items/7"), response: .text("exact, default priority")))
        #expect(answer(registry, request(.get, "/items/7")) == "template, priority 1")
        registry.add(Stub(RequestPattern(.get, "/items/7"), priority: 1, response: .text("exact, priority 1, newer")))
        #expect(answer(registry, request(.get, "/items/7")) == "exact, priority 1, newer")
        #expect(answer(registry, request(.get, "/items/8")) == "template, priority 1")
    }

    @Test func aStubWithTheSameIDReplacesTheOldOneAndCanBeRemoved() {
        let registry = StubRegistry()
        registry.add(Stub(id: "one", RequestPattern(.get, "/a"), response: .text("a")))
        registry.add(Stub(id: "one", RequestPattern(.get, "/b"), response: .text("b")))
        #expect(registry.count == 1)
        #expect(answer(registry, request(.get, "/a")) == "404")
        #expect(answer(registry, request(.get, "/b")) == "b")
        #expect(registry.remove(id: "one"))
        #expect(!registry.remove(id: "one"))
        #expect(answer(registry, request(.get, "/b")) == "404")
    }

    @Test func exactStubsAreLookedUpWithoutScanningTheOthers() {
        var index = StubIndex()
        for number in 0..<10_000 {
            index.add(Stub(RequestPattern(.get, .exact("/item/\(number)")), response: .text("\(number)")))
        }
        index.add(Stub(RequestPattern(.get, "/search/{term}"), response: .text("template")))
        let candidates = index.candidates(path: "/item/4321", decodedPath: "/item/4321")
        #expect(candidates.count == 2, "the one exact stub for the path and the one template, not 10,001")
        #expect(candidates.map(\.stub.matcher.path) == [.template("/search/{term}"), .exact("/item/4321")],
                "equal priorities: the more recently added first")
        #expect(index.all.count == 10_001)
        #expect(index.all.first?.matcher.path == .exact("/item/0"), "listing keeps registration order")
    }

    @Test func otherConditionsAreCheckedAfterTheIndex() {
        let registry = StubRegistry()
        registry.add(Stub(RequestPattern(.post, "/users").body(.jsonPartial(["role": "admin"])), response: .text("admin")))
        registry.add(Stub(RequestPattern(.post, "/users"), priority: 9, response: .text("fallback")))
        #expect(answer(registry, request(.post, "/users", body: #"{"role":"admin"}"#)) == "admin")
        #expect(answer(registry, request(.post, "/users", body: #"{"role":"user"}"#)) == "fallback")
    }
}

@Suite struct NearMissTests {
    @Test func theNearestStubsAreListedWithTheirDifferences() {
        let stubs = [
            Stub(name: "far", RequestPattern(.delete, "/orders/{id}"), response: .text("")),
            Stub(name: "near", RequestPattern(.post, "/users").header("Content-Type", "application/json"), response: .text("")),
            Stub(name: "path", RequestPattern(.post, "/user"), response: .text("")),
        ]
        let incoming = request(.post, "/users", headers: ["Content-Type": "text/plain"])
        let ranked = StubRegistry.nearest(incoming, stubs: stubs)
        #expect(ranked.map { $0.candidate.name } == ["near", "path", "far"])
        let report = StubRegistry.notFoundReport(for: incoming, stubs: stubs, scenarioState: { _ in ScenarioStep.started })
        #expect(report.hasPrefix("No stub matches POST /users\n3 stubs registered; the nearest:\n"))
        #expect(report.contains(#"1. "near" POST /users with header Content-Type equal to "application/json""#))
        #expect(report.contains(#"   - header Content-Type: expected equal to "application/json", got "text/plain""#))
        #expect(report.contains("   - path: expected path /user, got /users"))
    }

    @Test func aScenarioInTheWrongStateIsADifference() {
        let stub = Stub(RequestPattern(.get, "/cart"), response: .text(""), scenario: ScenarioStep("cart", requiredState: "has item"))
        let report = StubRegistry.notFoundReport(for: request(.get, "/cart"), stubs: [stub], scenarioState: { _ in "Started" })
        #expect(report.contains(#"scenario cart: needs state "has item", is in "Started""#))
    }

    @Test func anEmptyServerSaysSo() {
        #expect(StubRegistry.notFoundReport(for: request(.get, "/x"), stubs: [], scenarioState: { _ in "" })
            == "No stub matches GET /x\nThe server has no stubs.\n")
    }
}
