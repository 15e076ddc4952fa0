import Foundation
import TapedeckCore

/// The admin API's request handling: routes an admin request to the stubs, journal or scenarios and answers JSON.
/// No sockets: the daemon hands it the recorded request and the peer, so it is tested directly. The StubDefinitions article (TapedeckStubServer.docc) lists
/// the endpoints.
struct AdminAPI: Sendable {
    let configuration: AdminConfiguration
    let stubs: StubRegistry
    let journal: RequestJournal
    /// The upgraded WebSocket connections.
    var webSockets = WebSocketJournal(capacity: 10_000)
    /// Where a cassette loaded through `POST /__admin/cassettes` is served from.
    var fallback = FallbackSlot()

    /// Whether `path` is under the admin prefix.
    func handles(path: String) -> Bool {
        path == configuration.pathPrefix || path.hasPrefix(configuration.pathPrefix + "/")
    }

    func respond(to request: RecordedRequest, peer: PeerAddress) -> StubResponse {
        let decision = AdminAuthorization.decide(peerIsLoopback: peer.isLoopback, authorization: request.headers["Authorization"],
                                                 token: configuration.token)
        if case .refused(let status, let reason) = decision {
            var response = Self.error(reason, status: status)
            if status == 401 { response.headers["WWW-Authenticate"] = #"Bearer realm="tapedeck-admin""# }
            return response
        }
        let route = request.decodedPath.dropFirst(configuration.pathPrefix.count).split(separator: "/").map(String.init)
        switch (request.method, route.first, route.count) {
        case (_, "cassettes", 1):
            return cassettes(request)
        case (.get, "stubs", 1):
            return Self.json(["stubs": stubs.all])
        case (.post, "stubs", 1):
            return addStubs(request.body)
        case (.delete, "stubs", 1):
            stubs.removeAll()
            return Self.json(["removed": "all"])
        case (.get, "stubs", 2):
            guard let stub = stubs.stub(id: route[1]) else { return Self.error("no stub has id \"\(route[1])\"", status: 404) }
            return Self.json(stub)
        case (.delete, "stubs", 2):
            return stubs.remove(id: route[1]) ? Self.json(["removed": route[1]]) : Self.error("no stub has id \"\(route[1])\"", status: 404)
        case (.post, "reset", 1):
            stubs.removeAll()
            journal.removeAll()
            webSockets.removeAll()
            stubs.scenarios.resetAll()
            return Self.json(["reset": true])
        case (.get, "requests", 1):
            let connections = Dictionary(webSockets.connections.map { ($0.requestSequenceNumber, $0.id) }, uniquingKeysWith: { $1 })
            return Self.json(JournalDocument(requests: journal.entries.map { JournalEntry($0, webSocketConnection: connections[$0.sequenceNumber]) },
                                             droppedCount: journal.droppedCount))
        case (.delete, "requests", 1):
            journal.removeAll()
            return Self.json(["removed": "all"])
        case (.get, "websockets", 1):
            return Self.json(WebSocketJournalDocument(webSockets))
        case (.delete, "websockets", 1):
            webSockets.removeAll()
            return Self.json(["removed": "all"])
        case (.post, "requests", 2) where route[1] == "count":
            return countRequests(request.body)
        case (.get, "scenarios", 1):
            return Self.json(["scenarios": stubs.scenarios.all])
        case (.post, "scenarios", 2) where route[1] == "reset":
            stubs.scenarios.resetAll()
            return Self.json(["reset": true])
        case (.put, "scenarios", 3) where route[2] == "state":
            struct Body: Decodable { var state: String }
            guard let body = try? JSONDecoder().decode(Body.self, from: request.body), !body.state.isEmpty else {
                return Self.error(#"the body must be {"state": "NAME"} with a non-empty state"#, status: 400)
            }
            stubs.scenarios.set(route[1], to: body.state)
            return Self.json(["scenario": route[1], "state": body.state])
        default:
            return Self.error("no admin endpoint \(request.method) \(request.path); see StubDefinitions.md in TapedeckStubServer.docc for the list", status: 404)
        }
    }

    private func addStubs(_ body: Data) -> StubResponse {
        do throws(StubDefinitionError) {
            let made = try Stub.decodeList(body)
            for stub in made { stubs.add(stub) }
            return Self.json(["ids": made.map(\.id)], status: 201)
        } catch {
            return Self.error(error.description, status: 400)
        }
    }

    private func countRequests(_ body: Data) -> StubResponse {
        do throws(StubDefinitionError) {
            let pattern = try StubDefinitionError.decoding(RequestPattern.self, from: body)
            return Self.json(["count": journal.requests(matching: pattern).count])
        } catch {
            return Self.error(error.description, status: 400)
        }
    }

    static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> StubResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .data(data))
    }

    static func error(_ message: String, status: Int) -> StubResponse {
        json(["error": message], status: status)
    }
}

/// The journal as the admin API returns it.
struct JournalDocument: Encodable {
    var requests: [JournalEntry]
    var droppedCount: Int
}

/// One recorded request as JSON: the body as text when it is UTF-8, base64 otherwise.
struct JournalEntry: Encodable {
    var sequenceNumber: Int
    var method: String
    var path: String
    var query: String?
    var headers: [[String]]
    var body: String?
    var base64Body: String?
    var bodyLength: Int64
    var bodyTruncated: Bool
    var bodySHA256: String
    var receivedAt: Date
    var matchedStubID: String?
    /// The ``WebSocketJournal/Connection/id`` of the connection the request upgraded to.
    var webSocketConnection: Int?

    init(_ request: RecordedRequest, webSocketConnection: Int? = nil) {
        sequenceNumber = request.sequenceNumber
        method = request.method.rawValue
        path = request.path
        query = request.query
        headers = request.headers.map { [$0.name, $0.value] }
        if let text = String(data: request.body, encoding: .utf8) { body = text } else { base64Body = request.body.base64EncodedString() }
        bodyLength = request.bodyLength
        bodyTruncated = request.bodyTruncated
        bodySHA256 = request.bodySHA256
        receivedAt = request.receivedAt
        matchedStubID = request.matchedStubID
        self.webSocketConnection = webSocketConnection
    }
}
