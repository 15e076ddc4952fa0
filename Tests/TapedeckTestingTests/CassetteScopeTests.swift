import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

@Suite struct CassetteScopeTests {
    @Test func recordsFromTheStubServerThenReplaysWithItStopped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("scope.json")
        let server = try StubServer.httpbin()
        let url = server.url("/get?x=1")
        let recorded = Locked<Data?>(nil)
        let recordFailures = try await CassetteScope(cassette: cassette, mode: .once, upstream: server.transport()).run { transport in
            recorded.value = try await transport.send(HTTPRequest(url: url)).data
        }
        #expect(recordFailures.isEmpty)
        server.stop()

        let replayed = Locked<Data?>(nil)
        let replayFailures = try await CassetteScope(cassette: cassette, mode: .replay, requireAllPlayed: true).run { _ in
            // The task-local transport is the cassette's.
            replayed.value = try await TapedeckTest.transport.send(HTTPRequest(url: url)).data
        }
        #expect(replayFailures.isEmpty)
        #expect(replayed.value != nil)
        #expect(replayed.value == recorded.value)
    }

    @Test func unplayedInteractionsFailWhenRequired() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("scope.json")
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
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("scope.json")
        let server = try StubServer.httpbin()
        defer { server.stop() }
        await #expect(throws: Boom.self) {
            _ = try await CassetteScope(cassette: cassette, mode: .once, upstream: server.transport()).run { _ in throw Boom() }
        }
    }
}
