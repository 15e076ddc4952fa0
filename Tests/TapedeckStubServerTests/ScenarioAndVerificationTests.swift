import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct ScenarioStateTests {
    @Test func stepsMoveTheStateOnlyFromTheirRequiredState() {
        let states = ScenarioStates()
        #expect(states.state(of: "cart") == ScenarioStep.started)
        #expect(states.take(ScenarioStep("cart", requiredState: "Started", newState: "has item")))
        #expect(states.state(of: "cart") == "has item")
        #expect(!states.take(ScenarioStep("cart", requiredState: "Started", newState: "has item")))
        #expect(states.take(ScenarioStep("cart", newState: "paid")), "no required state: any state")
        #expect(states.state(of: "cart") == "paid")
        states.resetAll()
        #expect(states.state(of: "cart") == "Started")
    }

    @Test func theRegistryFallsThroughToTheNextStubWhenATransitionIsTaken() {
        let registry = StubRegistry()
        registry.add(Stub(id: "first", RequestPattern(.post, "/claim"), response: .text("won"),
                          scenario: ScenarioStep("prize", requiredState: "Started", newState: "claimed")))
        registry.add(Stub(id: "later", RequestPattern(.post, "/claim"), priority: 9, response: .text("too late")))
        #expect(registry.resolve(request(.post, "/claim"))?.id == "first")
        #expect(registry.resolve(request(.post, "/claim"))?.id == "later")
    }

    @Test func concurrentRequestsTakeATransitionExactlyOnce() async {
        let registry = StubRegistry()
        registry.add(Stub(id: "winner", RequestPattern(.post, "/claim"), response: .text("won"),
                          scenario: ScenarioStep("prize", requiredState: "Started", newState: "claimed")))
        registry.add(Stub(id: "loser", RequestPattern(.post, "/claim"), priority: 9, response: .text("too late")))
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 { group.addTask { registry.resolve(request(.post, "/claim"))?.id == "winner" } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
    }
}

@Suite struct VerificationTests {
    private func journal(_ requests: [RecordedRequest]) -> RequestJournal {
        let journal = RequestJournal(capacity: 100)
        for request in requests { journal.append(request) }
        return journal
    }

    @Test func countsThatHoldPass() throws {
        let journal = journal([request(.get, "/users/1"), request(.get, "/users/2"), request(.post, "/users")])
        try journal.verify(RequestPattern(.get, "/users/{id}"), count: .exactly(2))
        try journal.verify(RequestPattern(.post, "/users"), count: .once)
        try journal.verify(RequestPattern(.delete, "/users/{id}"), count: .never)
        try journal.verify(RequestPattern(nil, "/users/{id}"), count: .between(1...3))
        try journal.verify(RequestPattern(.get), count: .atMost(2))
        #expect(journal.requests(matching: RequestPattern(.get, "/users/{id}")).map(\.path) == ["/users/1", "/users/2"])
    }

    @Test func aFailedCountSaysWhatArrivedAndTheNearestMisses() {
        let journal = journal([
            request(.post, "/orders", headers: ["Content-Type": "text/plain"], body: "x"),
            request(.get, "/health"),
        ])
        let matcher = RequestPattern(.post, "/orders").header("Content-Type", "application/json")
        do {
            try journal.verify(matcher, count: .once)
            Issue.record("verification should have failed")
        } catch {
            #expect(error.matching.isEmpty)
            #expect(error.description == """
                Expected exactly 1 request matching POST /orders with header Content-Type equal to "application/json", but received 0.
                Nearest other requests (of 2):
                  #1 POST /orders
                     - header Content-Type: expected equal to "application/json", got "text/plain"
                  #2 GET /health
                     - method: expected POST, got GET
                     - path: expected path /orders, got /health
                     - header Content-Type: expected equal to "application/json", but it is absent

                """)
        }
    }

    @Test func tooManyMatchesAreListed() {
        let journal = journal([request(.get, "/a"), request(.get, "/a")])
        #expect(throws: VerificationError.self) { try journal.verify(RequestPattern(.get, "/a"), count: .atMost(1)) }
        let error = Verifier.verify(RequestPattern(.get, "/a"), count: .atMost(1), in: journal.entries)
        #expect(error?.description.hasPrefix("Expected at most 1 request matching GET /a, but received 2.\nMatching:\n  #1 GET /a\n  #2 GET /a\n") == true)
        #expect(Verifier.verify(RequestPattern(.get, "/b"), count: .once, in: [])?.description.hasSuffix("The journal is empty.\n") == true)
    }
}

@Suite struct ResponseTemplateTests {
    @Test func placeholdersAreFilledFromTheRequest() throws {
        let template = try ResponseTemplate(status: 201, headers: ["X-User": "{{path.id}}"],
                                            body: #"{{method}} {{path}} q={{query.q}} h={{header.x-trace}} n={{json.user.name}} r={{json.roles.1}} o={{json.user}} missing=[{{query.none}}]"#)
        let incoming = RecordedRequest(method: .post, path: "/users/42", query: "q=a%20b", headers: ["X-Trace": "t1"],
                                       body: Data(#"{"user": {"name": "Ada"}, "roles": ["a", "b"]}"#.utf8))
        let response = template.render(incoming, pathParameters: ["id": "42"])
        #expect(response.status == 201)
        #expect(response.headers["X-User"] == "42")
        guard case .data(let body) = response.body else {
            Issue.record("expected a data body")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == #"POST /users/42 q=a b h=t1 n=Ada r=b o={"name":"Ada"} missing=[]"#)
    }

    @Test func badPlaceholdersAreRefusedWithTheirPosition() {
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate(body: "a {{nope}}") }
        let unclosed = #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate(body: "ab {{path") }
        #expect(unclosed?.reason == #""{{" at character 3 is never closed by "}}""#)
        let unknown = #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate(body: "{{cookie.x}}") }
        #expect(unknown?.reason.hasPrefix(#"unknown placeholder "{{cookie.x}}" at character 0"#) == true)
    }
}

@Suite struct StubDelayTests {
    @Test func aSeededRandomDelayRepeatsItsSequenceAndStaysInRange() {
        let range = Duration.milliseconds(10)...Duration.milliseconds(50)
        let first = StubDelay.random(range, seed: 42)
        let second = StubDelay.random(range, seed: 42)
        let a = (0..<50).map { _ in first.next() }
        let b = (0..<50).map { _ in second.next() }
        #expect(a == b)
        #expect(a.allSatisfy { range.contains($0) })
        #expect(Set(a).count > 10, "the values vary")
        let other = StubDelay.random(range, seed: 43)
        #expect((0..<50).map { _ in other.next() } != a)
        #expect(StubDelay.fixed(.milliseconds(5)).next() == .milliseconds(5))
    }
}
