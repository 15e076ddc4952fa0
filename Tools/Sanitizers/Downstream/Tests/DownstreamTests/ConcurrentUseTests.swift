import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tapedeck
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckURLSession
import Testing

/// Tapedeck used from many tasks at once, the way a downstream suite uses it: every test here shares one object
/// (a transport, a cassette, a session) between concurrent requests, so that ThreadSanitizer watches Tapedeck's own
/// locking. The suites run in parallel with each other too. Everything talks to 127.0.0.1.
@Suite struct ConcurrentUseTests {
    static let parallelRequests = 16

    /// A stub server answering `/items/N` with `{"item": N}`.
    static func itemServer() throws -> StubServer {
        let server = try StubServer()
        for item in 0..<parallelRequests {
            server.route(.get, "/items/\(item)", response: .json(.object(["item": .number(Double(item))])))
        }
        return server
    }

    /// Sends `/items/0…` once each from concurrent tasks and returns the bodies by item.
    static func fetchAll(
        _ server: StubServer, through transport: some HTTPTransport
    ) async throws -> [Int: String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for item in 0..<parallelRequests {
                group.addTask {
                    let response = try await transport.send(HTTPRequest(url: server.url("/items/\(item)")))
                    #expect(response.statusCode == 200)
                    return (item, String(decoding: response.data ?? Data(), as: UTF8.self))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// Records `/items/0…` from a fresh item server into a new cassette in a temporary folder, concurrently, and
    /// returns the cassette, what the live requests got, and the stopped server's URL.
    static func recordItems() async throws -> (cassette: URL, live: [Int: String], origin: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("downstream-\(UUID().uuidString)")
        let cassette = folder.appendingPathComponent("items.json")
        let server = try itemServer()
        defer { server.stop() }
        let recorder = try CassetteTransport(cassette: cassette, mode: .once, upstream: CurlTransport(), environment: [:])
        let live = try await fetchAll(server, through: recorder)
        #expect(try recorder.finish().interactionCount == parallelRequests)
        return (cassette, live, server.url("/"))
    }

    @Test func curlTransportSharedByConcurrentRequests() async throws {
        let server = try Self.itemServer()
        defer { server.stop() }
        let bodies = try await Self.fetchAll(server, through: CurlTransport())
        #expect(bodies.count == Self.parallelRequests)
        #expect(bodies[3]?.contains("3") == true)
        #expect(server.journal.entries.count == Self.parallelRequests)
    }

    @Test func cassetteRecordedAndReplayedConcurrently() async throws {
        let (cassette, live, origin) = try await Self.recordItems()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let player = try CassetteTransport(cassette: cassette, mode: .replay, environment: [:])
        let replayed = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for item in 0..<Self.parallelRequests {
                group.addTask {
                    let response = try await player.send(HTTPRequest(url: origin.appendingPathComponent("items/\(item)")))
                    return (item, String(decoding: response.data ?? Data(), as: UTF8.self))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(replayed == live)
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    @Test func stubServerServingACassetteToConcurrentClients() async throws {
        let (cassette, live, origin) = try await Self.recordItems()
        defer { try? FileManager.default.removeItem(at: cassette.deletingLastPathComponent()) }
        let server = try StubServer()
        defer { server.stop() }
        try server.serve(cassette: cassette, origin: origin)
        let served = try await Self.fetchAll(server, through: server.transport())
        #expect(served == live)
        #expect(try server.finishCassette(requireAllPlayed: true)?.unplayed.isEmpty == true)
    }

    @Test func urlSessionAdapterSharedByConcurrentTasks() async throws {
        let server = try Self.itemServer()
        defer { server.stop() }
        let session = URLSession(configuration: .tapedeck(transport: server.transport()))
        defer { session.finishTasksAndInvalidate() }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for item in 0..<Self.parallelRequests {
                group.addTask {
                    let (data, response) = try await session.data(from: server.url("/items/\(item)"))
                    #expect(String(decoding: data, as: UTF8.self).contains("\(item)"))
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: Self.parallelRequests))
    }

    @Test func sessionManagerSharedByConcurrentTasksAndClosures() async throws {
        let server = try Self.itemServer()
        defer { server.stop() }
        let api = HTTPSessionManager(baseURL: server.url("/"), transport: server.transport())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for item in 0..<Self.parallelRequests {
                group.addTask {
                    let result = try await api.get("items/\(item)")
                    #expect(result.value as? JSONValue == .object(["item": .number(Double(item))]))
                }
            }
            try await group.waitForAll()
        }
        // The AFNetworking-style door: closures on the completion queue, tasks tracked in the manager's registry.
        let completed = await withTaskGroup(of: Bool.self) { group in
            for item in 0..<Self.parallelRequests {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        api.get("items/\(item)", success: { _, _ in continuation.resume(returning: true) },
                                failure: { _, _ in continuation.resume(returning: false) })
                    }
                }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(completed == Self.parallelRequests)
    }
}
