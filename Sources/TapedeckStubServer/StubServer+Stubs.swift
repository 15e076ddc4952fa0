import Foundation
import TapedeckCore

extension StubServer {
    /// Answers `method` + `path` with a fixed response: sugar for a ``Stub`` with the default priority. A later
    /// route for the same request wins. `path` is exact, or a template when it holds `{name}` or ends in `/**`.
    ///
    /// ```swift
    /// server.route(.get, "/users/{id}", response: .json(["name": "Ada"]))
    /// ```
    @discardableResult
    public func route(_ method: HTTPMethod?, _ path: String, response: StubResponse) -> Stub.ID {
        add(Stub(RequestPattern(method, .inferred(path)), response: response))
    }

    /// Answers `method` + `path` with what `handler` builds from the request.
    @discardableResult
    public func route(_ method: HTTPMethod?, _ path: String, handler: @escaping @Sendable (RecordedRequest) -> StubResponse) -> Stub.ID {
        add(Stub(RequestPattern(method, .inferred(path)), handler: handler))
    }

    /// Adds a route.
    @discardableResult
    public func add(_ route: StubRoute) -> Stub.ID {
        add(route.stub)
    }

    /// Adds a stub, replacing any stub with the same ID, and returns its ID.
    ///
    /// ```swift
    /// server.add(Stub(RequestPattern(.post, "/users").body(.jsonPartial(["name": "Ada"])), response: .text("", status: 201)))
    /// ```
    @discardableResult
    public func add(_ stub: Stub) -> Stub.ID {
        core.stubs.add(stub)
        return stub.id
    }

    /// Removes the stub with `id`; whether there was one.
    @discardableResult
    public func removeStub(id: Stub.ID) -> Bool {
        core.stubs.remove(id: id)
    }

    /// Removes every stub; the journal and scenario states are kept.
    public func removeAllStubs() {
        core.stubs.removeAll()
    }

    /// Every stub, in the order they were added.
    public var stubs: [Stub] { core.stubs.all }

    /// The states of the server's scenarios (see ``ScenarioStep``).
    public var scenarios: ScenarioStates { core.stubs.scenarios }

    /// Removes every stub, empties the journal and puts every scenario back in its start state.
    public func reset() {
        core.stubs.removeAll()
        core.journal.removeAll()
        core.stubs.scenarios.resetAll()
    }
}
