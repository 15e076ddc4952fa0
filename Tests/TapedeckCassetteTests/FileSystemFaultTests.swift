import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// File-system faults while recording give a `CassetteError` that says what and where, never a crash, and leave a
/// cassette that loads with every interaction completed before the fault. (Permissions do not stop root, so the
/// faults are made with paths that cannot be written whoever runs the tests.)
@Suite struct FileSystemFaultTests {
    @Test func aSidecarThatCannotBeWrittenIsAClearErrorAndEarlierInteractionsStay() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            server.route(.get, "/small", response: .text("small"))
            server.route(.get, "/large", response: .text(String(repeating: "x", count: 4096)))
            let cassette = directory.cassette("faults.json")
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport(),
                                            configuration: CassetteConfiguration(sidecarThreshold: 1024))
            _ = try await recorder.send(HTTPRequest(url: server.url("/small")))
            // A plain file where the sidecar folder goes: no sidecar can be written.
            let folder = directory.file("faults.bodies")
            try Data("in the way".utf8).write(to: folder)
            let error = await #expect(throws: CassetteError.self) {
                _ = try await recorder.send(HTTPRequest(url: server.url("/large")))
            }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("faults.bodies"), "the error names where: \(message)")
            _ = try? recorder.finish()
            let loaded = try CassetteFile.load(cassette)
            #expect(loaded.interactions.map(\.request.url) == [server.url("/small").absoluteString],
                    "the interaction completed before the fault is on disk, and nothing half-written")
        }
    }

    @Test func aCassetteFolderThatIsAFileIsAClearErrorAtTheFirstRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.file("Suite")
        try Data().write(to: blocker)
        try await withStubServer { server in
            server.route(.get, "/small", response: .text("small"))
            let recorder = try openCassette(blocker.appendingPathComponent("test.json"), mode: .all, upstream: server.transport())
            let error = await #expect(throws: CassetteError.self) {
                _ = try await recorder.send(HTTPRequest(url: server.url("/small")))
            }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains(blocker.path), "the error names where: \(message)")
            _ = try? recorder.finish()
        }
    }
}
