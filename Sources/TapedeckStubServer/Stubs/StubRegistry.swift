import Foundation
import TapedeckCore

/// The server's stubs and scenario states, shared by the daemon's threads. The index is read under a short lock;
/// matching runs outside it; a scenario transition is taken atomically (see ``ScenarioStates``).
final class StubRegistry: Sendable {
    private let index = Locked(StubIndex())
    let scenarios = ScenarioStates()

    func add(_ stub: Stub) {
        var stub = stub
        if case .response(let response) = stub.responder, stub.delay == nil, StubResponse.statusProblem(response.status) == nil {
            stub.prepared = PreparedResponse.prepare(response)
        }
        index.withLock { $0.add(stub) }
    }

    @discardableResult
    func remove(id: Stub.ID) -> Bool {
        index.withLock { $0.remove(id: id) }
    }

    func removeAll() {
        index.withLock { $0.removeAll() }
    }

    var all: [Stub] { index.withLock { $0.all } }

    var count: Int { index.withLock { $0.count } }

    func stub(id: Stub.ID) -> Stub? { index.withLock { $0.stub(id: id) } }

    /// The stub that answers `request`, having taken its scenario transition, or `nil` when none matches.
    func resolve(_ request: RecordedRequest) -> Stub? {
        let decodedPath = request.decodedPath
        let candidates = index.withLock { $0.candidates(path: request.path, decodedPath: decodedPath) }
        for entry in candidates where entry.stub.matcher.matches(request) {
            guard let step = entry.stub.scenario else { return entry.stub }
            if scenarios.take(step) { return entry.stub }
        }
        return nil
    }

    /// The answer for a request no stub matches: a 404 listing the nearest stubs and how each differs.
    func notFoundResponse(for request: RecordedRequest) -> StubResponse {
        let text = Self.notFoundReport(for: request, stubs: all, scenarioState: scenarios.state(of:))
        return StubResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8", "X-Tapedeck-Unmatched": "1"],
                            body: .data(Data(text.utf8)))
    }
}
