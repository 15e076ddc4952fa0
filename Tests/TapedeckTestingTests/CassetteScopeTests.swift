import Foundation
import Synchronization
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTesting

/// A flag set from a `@Sendable` closure.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

private func temporaryCassette() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("tapedeck-testing-\(UUID().uuidString)", isDirectory: true)
        .appendingPathComponent("scope.json")
}

@Suite struct CassetteScopeTests {
    @Test func recordsFromTheStubServerThenReplaysWithItStopped() async throws {
        let cassette = temporaryCassette()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let server = try StubServer.httpbin()
        let url = server.url("/get?x=1")
        let recorded = Box()
        let recordFailures = try await CassetteScope(cassette: cassette, mode: .once, upstream: server.transport()).run { transport in
            recorded.value = try await transport.send(HTTPRequest(url: url)).data
        }
        #expect(recordFailures.isEmpty)
        server.stop()

        let replayed = Box()
        let replayFailures = try await CassetteScope(cassette: cassette, mode: .replay, requireAllPlayed: true).run { _ in
            // The task-local transport is the cassette's.
            replayed.value = try await TapedeckTest.transport.send(HTTPRequest(url: url)).data
        }
        #expect(replayFailures.isEmpty)
        #expect(replayed.value != nil)
        #expect(replayed.value == recorded.value)
    }

    @Test func unplayedInteractionsFailWhenRequired() async throws {
        let cassette = temporaryCassette()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let server = try StubServer.httpbin()
        defer { server.stop() }
        _ = try await CassetteScope(cassette: cassette, mode: .once, upstream: server.transport()).run { transport in
            _ = try await transport.send(HTTPRequest(url: server.url("/get")))
            _ = try await transport.send(HTTPRequest(url: server.url("/json")))
        }
        let failures = try await CassetteScope(cassette: cassette, mode: .replay, requireAllPlayed: true).run { transport in
            _ = try await transport.send(HTTPRequest(url: server.url("/get")))
        }
        #expect(failures.count == 1)
        #expect(failures.first?.description.contains("/json") == true)
    }

    @Test func theBodysOwnErrorsStillReachTheTest() async throws {
        struct Boom: Error {}
        let cassette = temporaryCassette()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let server = try StubServer.httpbin()
        defer { server.stop() }
        await #expect(throws: Boom.self) {
            _ = try await CassetteScope(cassette: cassette, mode: .once, upstream: server.transport()).run { _ in throw Boom() }
        }
    }
}

/// A mutable value shared with a `@Sendable` closure.
final class Box: Sendable {
    private let storage = Mutex<Data?>(nil)
    var value: Data? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
