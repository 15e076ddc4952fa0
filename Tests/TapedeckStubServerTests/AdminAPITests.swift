import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport

@Suite struct AdminAuthorizationTests {
    @Test func withoutATokenOnlyLoopbackPeersAreAllowed() {
        #expect(AdminAuthorization.decide(peerIsLoopback: true, authorization: nil, token: nil) == .allowed)
        #expect(AdminAuthorization.decide(peerIsLoopback: false, authorization: nil, token: nil)
            == .refused(status: 403, reason: "the admin API answers only loopback peers unless a token is configured"))
    }

    @Test func withATokenEveryPeerMustSendIt() {
        #expect(AdminAuthorization.decide(peerIsLoopback: false, authorization: "Bearer s3cret", token: "s3cret") == .allowed)
        #expect(AdminAuthorization.decide(peerIsLoopback: true, authorization: "bearer s3cret", token: "s3cret") == .allowed)
        guard case .refused(401, _) = AdminAuthorization.decide(peerIsLoopback: true, authorization: nil, token: "s3cret") else {
            Issue.record("a missing token must be refused even from loopback")
            return
        }
        #expect(AdminAuthorization.decide(peerIsLoopback: true, authorization: "Bearer wrong", token: "s3cret")
            == .refused(status: 401, reason: "the admin token is wrong"))
        #expect(AdminAuthorization.decide(peerIsLoopback: true, authorization: "Basic czNjcmV0", token: "s3cret")
            == .refused(status: 401, reason: #"the Authorization header must be "Bearer TOKEN""#))
    }
}

@Suite struct AdminAPIRoutingTests {
    private func api(token: String? = nil) -> AdminAPI {
        AdminAPI(configuration: AdminConfiguration(token: token), stubs: StubRegistry(), journal: RequestJournal(capacity: 10))
    }

    private func call(_ api: AdminAPI, _ method: HTTPMethod, _ path: String, _ body: String = "", loopback: Bool = true) -> (Int, String) {
        let response = api.respond(to: request(method, path, body: body), peer: PeerAddress(isLoopback: loopback))
        guard case .data(let data) = response.body else { return (response.status, "") }
        return (response.status, String(decoding: data, as: UTF8.self))
    }

    @Test func stubsCanBeAddedListedAndRemoved() {
        let api = api()
        let (status, body) = call(api, .post, "/__admin/stubs",
                                  #"{"id": "s1", "request": {"method": "GET", "path": "/x"}, "response": {"body": "hi"}}"#)
        #expect(status == 201)
        #expect(body == #"{"ids":["s1"]}"#)
        #expect(api.stubs.resolve(request(.get, "/x"))?.id == "s1")
        let listing = call(api, .get, "/__admin/stubs").1
        #expect(listing.contains(#""request":{"method":"GET","path":"/x"}"#))
        #expect(listing.contains(#""summary":"GET \/x""#) || listing.contains(#""summary":"GET /x""#))
        #expect(call(api, .get, "/__admin/stubs/s1").0 == 200)
        #expect(call(api, .delete, "/__admin/stubs/s1").0 == 200)
        #expect(call(api, .delete, "/__admin/stubs/s1") == (404, #"{"error":"no stub has id \"s1\""}"#))
    }

    @Test func badDefinitionsAreRefusedSayingWhere() {
        let api = api()
        let (status, body) = call(api, .post, "/__admin/stubs",
                                  #"[{"request": {"path": "/a"}, "response": {}}, {"request": {"path": "/b", "query": {"q": {}}}, "response": {}}]"#)
        #expect(status == 400)
        #expect(body.contains("invalid stub definition at [1].request.query.q: give one of equalTo"))
        #expect(api.stubs.count == 0, "nothing is added when any definition is bad")
    }

    @Test func theJournalScenariosAndResetAreReachable() {
        let api = api()
        api.journal.append(request(.get, "/seen", query: "a=1"))
        let journal = call(api, .get, "/__admin/requests").1
        #expect(journal.contains(#""path":"/seen""#) || journal.contains(#""path":"\/seen""#))
        #expect(journal.contains(#""droppedCount":0"#))
        #expect(call(api, .post, "/__admin/requests/count", #"{"method": "GET", "pathTemplate": "/{x}"}"#).1 == #"{"count":1}"#)
        #expect(call(api, .put, "/__admin/scenarios/cart/state", #"{"state": "paid"}"#).0 == 200)
        #expect(api.stubs.scenarios.state(of: "cart") == "paid")
        #expect(call(api, .put, "/__admin/scenarios/cart/state", #"{"nope": 1}"#).0 == 400)
        #expect(call(api, .get, "/__admin/scenarios").1 == #"{"scenarios":{"cart":"paid"}}"#)
        #expect(call(api, .post, "/__admin/reset").0 == 200)
        #expect(api.journal.entries.isEmpty)
        #expect(api.stubs.scenarios.state(of: "cart") == ScenarioStep.started)
        #expect(call(api, .get, "/__admin/unknown").0 == 404)
    }

    @Test func refusedRequestsChangeNothing() {
        let api = api(token: "t")
        let (status, _) = call(api, .post, "/__admin/stubs", #"{"request": {}, "response": {}}"#)
        #expect(status == 401)
        #expect(api.stubs.count == 0)
        #expect(call(api, .post, "/__admin/reset", loopback: false).0 == 401)
    }
}

extension OnLoopback {
    @Suite struct AdminAPIOverHTTPTests {
        let transport = CurlTransport()

        @Test func theAdminAPIIsOffByDefault() async throws {
            try await withStubServer { server in
                let response = try await transport.send(HTTPRequest(url: server.url("/__admin/stubs")))
                #expect(response.statusCode == 404)
                #expect(response.text.hasPrefix("No stub matches GET /__admin/stubs"))
            }
        }

        @Test func aTokenIsRequiredWhenConfigured() async throws {
            try await withStubServer(.init(admin: AdminConfiguration(token: "s3cret"))) { server in
                var add = HTTPRequest(method: .post, url: server.url("/__admin/stubs"))
                add.body = .data(Data(#"{"request": {"method": "GET", "pathTemplate": "/users/{id}"}, "response": {"status": 200, "jsonBody": {"id": "{{path.id}}"}, "template": false}}"#.utf8))
                #expect(try await transport.send(add).statusCode == 401)
                add.headers["Authorization"] = "Bearer wrong"
                #expect(try await transport.send(add).statusCode == 401)
                add.headers["Authorization"] = "Bearer s3cret"
                #expect(try await transport.send(add).statusCode == 201)
                let user = try await transport.send(HTTPRequest(url: server.url("/users/9")))
                #expect(user.statusCode == 200)
                #expect(user.text == #"{"id":"{{path.id}}"}"#)
                #expect(server.journal.entries.map(\.path) == ["/users/9"], "admin requests are not journaled")
            }
        }

        @Test func withoutATokenLoopbackClientsDriveTheServer() async throws {
            try await withStubServer(.init(admin: AdminConfiguration())) { server in
                var add = HTTPRequest(method: .post, url: server.url("/__admin/stubs"))
                add.body = .data(Data(#"{"request": {"method": "GET", "path": "/hi"}, "response": {"body": "Hi {{query.name}}", "template": true}}"#.utf8))
                #expect(try await transport.send(add).statusCode == 201)
                #expect(try await transport.send(HTTPRequest(url: server.url("/hi?name=Ada"))).text == "Hi Ada")
                let journal = try await transport.send(HTTPRequest(url: server.url("/__admin/requests")))
                #expect(journal.text.contains(#""query":"name=Ada""#))
            }
        }
    }
}
