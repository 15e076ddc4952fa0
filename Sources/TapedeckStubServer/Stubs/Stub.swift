import Foundation
import TapedeckCore

/// A stub: which requests it answers (a ``RequestPattern``), how it ranks against other stubs that match, and what
/// it answers, optionally after a delay and only in a given scenario state.
///
/// **Which stub wins.** Among the stubs whose matcher accepts a request (and whose ``scenario`` is in the required
/// state), the one with the **smallest ``priority`` number** wins (1 beats 5, as in WireMock); among equal priorities
/// the **most recently added** wins, so a test can override a default. The default priority is
/// ``defaultPriority`` (5).
///
/// ```swift
/// server.add(Stub(RequestPattern(.get, "/users/{id}"), response: .json(["name": "Ada"])))
/// server.add(Stub(RequestPattern(.get, "/users/0"), priority: 1, response: .text("gone", status: 410)))
/// server.add(Stub(RequestPattern(.get, "/flaky"), fault: .reset))
/// ```
public struct Stub: Sendable, Identifiable {
    /// A stub's identifier: a UUID string unless one is given.
    public typealias ID = String

    /// The priority of a stub that does not set one.
    public static let defaultPriority = 5

    /// Identifies the stub for removal, the admin API and the journal (``RecordedRequest/matchedStubID``).
    public var id: ID
    /// An optional name shown in near-miss reports.
    public var name: String?
    /// Which requests the stub answers.
    public var matcher: RequestPattern
    /// Smaller numbers win; see the type's documentation.
    public var priority: Int
    /// What the stub answers.
    public var responder: StubResponder
    /// A delay before answering, overriding the response's own ``StubResponse/delay``.
    public var delay: StubDelay?
    /// The scenario state this stub requires and the state it moves to.
    public var scenario: ScenarioStep?
    /// The fixed response built for libmicrohttpd once, set by the registry (see ``PreparedResponse``).
    var prepared: PreparedResponse?

    /// Creates a stub with any responder.
    public init(
        id: ID = UUID().uuidString, name: String? = nil, _ matcher: RequestPattern, priority: Int = Stub.defaultPriority,
        responder: StubResponder, delay: StubDelay? = nil, scenario: ScenarioStep? = nil
    ) {
        self.id = id
        self.name = name
        self.matcher = matcher
        self.priority = priority
        self.responder = responder
        self.delay = delay
        self.scenario = scenario
    }

    /// Creates a stub answering with a fixed response.
    public init(
        id: ID = UUID().uuidString, name: String? = nil, _ matcher: RequestPattern, priority: Int = Stub.defaultPriority,
        response: StubResponse, delay: StubDelay? = nil, scenario: ScenarioStep? = nil
    ) {
        self.init(id: id, name: name, matcher, priority: priority, responder: .response(response), delay: delay, scenario: scenario)
    }

    /// Creates a stub answering with what `handler` builds from the request.
    public init(
        id: ID = UUID().uuidString, name: String? = nil, _ matcher: RequestPattern, priority: Int = Stub.defaultPriority,
        delay: StubDelay? = nil, scenario: ScenarioStep? = nil, handler: @escaping @Sendable (RecordedRequest) -> StubResponse
    ) {
        self.init(id: id, name: name, matcher, priority: priority, responder: .handler(handler), delay: delay, scenario: scenario)
    }

    /// Creates a stub that misbehaves at the socket instead of answering.
    public init(
        id: ID = UUID().uuidString, name: String? = nil, _ matcher: RequestPattern, priority: Int = Stub.defaultPriority,
        fault: TransportFault, delay: StubDelay? = nil, scenario: ScenarioStep? = nil
    ) {
        self.init(id: id, name: name, matcher, priority: priority, responder: .fault(fault), delay: delay, scenario: scenario)
    }

    /// The answer to `request` (not for faults, which the server carries out itself).
    func response(to request: RecordedRequest) -> StubResponse {
        var response: StubResponse
        switch responder {
        case .response(let fixed): response = fixed
        case .handler(let handler): response = handler(request)
        case .template(let template):
            response = template.render(request, pathParameters: matcher.path?.parameters(decodedPath: request.decodedPath) ?? [:])
        case .fault: response = StubResponse(status: 500)
        case .webSocket: response = StubResponse(status: 426)
        }
        if let problem = StubResponse.statusProblem(response.status) { return unanswerable(problem) }
        if let delay { response.delay = delay.next() }
        return response
    }

    /// What a stub built in Swift with a status the server cannot send (a 1xx, or outside 100–599) answers instead:
    /// a 500 that names the stub and the problem. Stub definitions, WireMock mappings and httpbin refuse such a
    /// status when read; `StubServer.add(_:)` cannot throw, and a closure's status is only known once it
    /// runs, so the check is made here, where every stub's response is built. (A `101` or `100` sent as such would
    /// leave the client waiting for a final response for ever.)
    private func unanswerable(_ problem: String) -> StubResponse {
        .text("stub \(id) (\(summary)) cannot answer: status \(problem)\n", status: 500)
    }

    /// `"name" (id) GET /path …, priority 5`, for reports.
    var summary: String {
        let label = name.map { "\"\($0)\" " } ?? ""
        var text = "\(label)\(matcher)"
        if priority != Self.defaultPriority { text += " [priority \(priority)]" }
        if let scenario { text += " [\(scenario)]" }
        return text
    }
}

/// What a stub answers.
public enum StubResponder: Sendable {
    /// A fixed response.
    case response(StubResponse)
    /// A response built by a closure from the request.
    case handler(@Sendable (RecordedRequest) -> StubResponse)
    /// A response built from a template that uses the request (definable in JSON).
    case template(ResponseTemplate)
    /// A fault at the socket instead of a response.
    case fault(TransportFault)
    /// An upgrade to a WebSocket that runs a ``WebSocketStub``.
    case webSocket(WebSocketStub)
}
