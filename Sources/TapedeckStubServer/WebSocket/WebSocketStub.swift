import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// What a stubbed WebSocket route does once a client has upgraded: what it sends on connect, how it answers the
/// messages that match a rule (patterns are the request-body ``BodyPattern``s: equal, contains, regex, JSON, JSONPath),
/// and what it does with the others. Each step can wait, close with a code, or drop the connection.
///
/// ```swift
/// let server = try StubServer()
/// server.webSocket("/chat", WebSocketStub(
///     onConnect: [.send(.text("welcome"))],
///     rules: [
///         .init(.jsonPath("$.type", .equalTo("ping")), [.wait(.milliseconds(50)), .send(.text(#"{"type":"pong"}"#))]),
///         .init(.contains("bye"), [.close(WebSocketCloseCode(rawValue: 4000), reason: "asked")]),
///     ]))
/// // any client: ws://127.0.0.1:\(server.port)/chat
/// ```
public struct WebSocketStub: Sendable, Hashable {
    /// One step of an answer.
    public enum Step: Sendable, Hashable {
        /// Send a message.
        case send(WebSocketMessage)
        /// Wait before the next step.
        case wait(Duration)
        /// Send a close frame with `code` and `reason`, then end the connection once the client answered it.
        case close(WebSocketCloseCode, reason: String = "")
        /// Cut the connection without a close frame.
        case drop
    }

    /// The answer to a client message `message` matches (its text as UTF-8, or its bytes), on the connections whose
    /// upgrade request `connection` matches.
    public struct Rule: Sendable, Hashable {
        /// What the message must be; `nil` accepts every message.
        public var message: BodyPattern?
        /// What is done when it is.
        public var steps: [Step]
        /// The upgrade requests (path, query, headers) of the connections the rule applies to; `nil` for all of them.
        /// A WireMock message stub's channel pattern becomes this.
        public var connection: RequestPattern?

        /// A rule.
        public init(_ message: BodyPattern?, _ steps: [Step], connection: RequestPattern? = nil) {
            self.message = message
            self.steps = steps
            self.connection = connection
        }

        /// Whether the rule answers `payload` (a text message's UTF-8, or a binary message's bytes).
        func accepts(_ payload: Data) -> Bool {
            message.map { $0.difference(body: payload, contentType: nil) == nil } ?? true
        }
    }

    /// What is done as soon as the connection is open.
    public var onConnect: [Step]
    /// The rules, tried in order; the first that matches answers.
    public var rules: [Rule]
    /// What is done for a message no rule matches (nothing by default).
    public var otherwise: [Step]
    /// The subprotocols the route agrees to, the client's first offered one among them being chosen.
    public var subprotocols: [String]
    /// The largest frame and message accepted from a client (larger ones close with 1009).
    public var limits: WebSocketLimits

    /// A stub.
    public init(onConnect: [Step] = [], rules: [Rule] = [], otherwise: [Step] = [], subprotocols: [String] = [],
                limits: WebSocketLimits = WebSocketLimits()) {
        self.onConnect = onConnect
        self.rules = rules
        self.otherwise = otherwise
        self.subprotocols = subprotocols
        self.limits = limits
    }

    /// The stub as it runs on the connection opened by `upgrade`: the rules whose ``Rule/connection`` the upgrade
    /// request does not match are left out.
    func narrowed(to upgrade: RecordedRequest) -> WebSocketStub {
        guard rules.contains(where: { $0.connection != nil }) else { return self }
        var narrowed = self
        narrowed.rules = rules.filter { $0.connection?.matches(upgrade) ?? true }
        return narrowed
    }
}

extension StubServer {
    /// Adds a stub that upgrades `GET path` to a WebSocket and runs `stub` on it; a request that does not ask for
    /// the upgrade gets `426 Upgrade Required`.
    ///
    /// ```swift
    /// server.webSocket("/hello", WebSocketStub(onConnect: [.send(.text("hi"))], otherwise: [.drop]))
    /// ```
    @discardableResult
    public func webSocket(_ path: String, _ stub: WebSocketStub, priority: Int = Stub.defaultPriority) -> Stub.ID {
        add(Stub(RequestPattern(.get, .inferred(path)), priority: priority, responder: .webSocket(stub)))
    }
}
