import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// File-system faults while recording give a `CassetteError` that says what and where, never a crash, and leave a
/// cassette that loads with every interaction completed before the fault. (Permissions do not stop root, so the
/// faults are made with paths that cannot be written whoever runs the tests, or with mounts.) A full disk is in
/// ``DiskFullTests``.
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

    /// A folder made read-only: as root, bind-mounted read-only onto itself (permission bits do not stop root);
    /// otherwise by its permission bits. Root without the right to mount cannot make one, and says so.
    static let readOnlyFolderReason = "making a folder read-only as root needs mount(2), which this process may not call"
    static var canMakeAFolderReadOnly: Bool { geteuid() != 0 || ScratchMount.isPermitted }

    @Test(.enabled(if: canMakeAFolderReadOnly, Comment(rawValue: readOnlyFolderReason)))
    func aFolderMadeReadOnlyMidRunIsAClearErrorAndTheCassetteLoads() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("Suite")
        try await withStubServer { server in
            server.route(.get, "/small", response: .text("small"))
            server.route(.get, "/large", response: .text(String(repeating: "x", count: 4096)))
            let cassette = folder.appendingPathComponent("readonly.json")
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport(),
                                            configuration: CassetteConfiguration(sidecarThreshold: 1024))
            _ = try await recorder.send(HTTPRequest(url: server.url("/small?n=1")))
            let mount: ScratchMount?
            if geteuid() == 0 {
                mount = try ScratchMount.readOnly(folder)
            } else {
                mount = nil
                try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            }
            defer {
                mount?.unmount()
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            }
            // The journal was opened before: a small recording still goes to disk.
            _ = try await recorder.send(HTTPRequest(url: server.url("/small?n=2")))
            let error = await #expect(throws: CassetteError.self) {
                _ = try await recorder.send(HTTPRequest(url: server.url("/large")))
            }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("readonly.bodies") && message.contains(String(cString: strerror(geteuid() == 0 ? EROFS : EACCES))),
                    "the error says what and where: \(message)")
            let finishing = #expect(throws: CassetteError.self, "the journal cannot be folded into the file") { try recorder.finish() }
            #expect(finishing.map { "\($0)" }?.contains(cassette.path) == true, "\(String(describing: finishing))")
            let expected = [server.url("/small?n=1").absoluteString, server.url("/small?n=2").absoluteString]
            #expect(try CassetteFile.load(cassette).interactions.map(\.request.url) == expected, "loads while read-only")
            mount?.unmount()
            #expect(try CassetteFile.load(cassette).interactions.map(\.request.url) == expected, "loads once writable again")
        }
    }

    @Test func aCassetteFolderRemovedMidRunIsWrittenBackAndFurtherRecordingsAreRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.file("Suite")
        try await withStubServer { server in
            server.route(.get, "/a", response: .text("a"))
            let cassette = folder.appendingPathComponent("removed.json")
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport())
            let urls = (1...3).map { server.url("/a?n=\($0)") }
            _ = try await recorder.send(HTTPRequest(url: urls[0]))
            _ = try await recorder.send(HTTPRequest(url: urls[1]))
            try FileManager.default.removeItem(at: folder)
            let error = await #expect(throws: CassetteError.self) { _ = try await recorder.send(HTTPRequest(url: urls[2])) }
            guard case .changedWhileRecording(let file, let change, let savedTo, let count)? = error else {
                Issue.record("expected changedWhileRecording, got \(String(describing: error))")
                return
            }
            #expect(file == cassette.path && savedTo == cassette.path && count == 3 && change.contains("removed"), "\(error!)")
            #expect(try CassetteFile.load(cassette).interactions.map(\.request.url) == urls.map(\.absoluteString),
                    "written back with everything this transport recorded")
            await #expect(throws: CassetteError.self, "records no more") { _ = try await recorder.send(HTTPRequest(url: server.url("/a?n=4"))) }
            #expect(throws: CassetteError.self, "finishing says so again") { try recorder.finish() }
            #expect(try CassetteFile.load(cassette).interactions.count == 3)
            #expect(!FileManager.default.fileExists(atPath: cassette.path + ".journal"))
        }
    }

    @Test func aCassetteEditedByAnotherProcessBetweenRecordingsIsKeptAndTheRecordingsGoBesideIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            server.route(.get, "/a", response: .text("a"))
            let cassette = directory.cassette("edited.json")
            let recorder = try openCassette(cassette, mode: .newEpisodes, upstream: server.transport())
            let first = server.url("/a?n=1"), second = server.url("/a?n=2")
            _ = try await recorder.send(HTTPRequest(url: first))
            // Another process edits the file by hand (in place, as an editor that does not rename would).
            var edited = try CassetteFile.load(cassette)
            edited.interactions.append(Interaction(request: .init(method: "GET", url: "https://api.example.test/by-hand"),
                                                   outcome: .response(.init(statusCode: 204))))
            let editedBytes = CassetteCodec.encode(edited)
            let handle = try FileHandle(forWritingTo: cassette)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: editedBytes)
            try handle.close()
            let error = await #expect(throws: CassetteError.self) { _ = try await recorder.send(HTTPRequest(url: second)) }
            guard case .changedWhileRecording(let file, let change, let savedTo, let count)? = error else {
                Issue.record("expected changedWhileRecording, got \(String(describing: error))")
                return
            }
            #expect(file == cassette.path && change.contains("edited") && count == 2, "\(error!)")
            #expect(error!.description.contains(savedTo), "the message says where the recordings are")
            #expect(try Data(contentsOf: cassette) == editedBytes, "the other process's edit is not overwritten")
            #expect(try CassetteFile.load(cassette).interactions.map(\.request.url) == edited.interactions.map(\.request.url))
            #expect(try CassetteFile.load(URL(fileURLWithPath: savedTo)).interactions.map(\.request.url) == [first, second].map(\.absoluteString),
                    "nothing this transport recorded is lost")
            #expect(throws: CassetteError.self) { try recorder.finish() }
            #expect(try Data(contentsOf: cassette) == editedBytes, "finishing does not write over it either")
        }
    }

    @Test func aCassetteReplacedAfterTheLastRecordingIsFoundWhenFinishing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            server.route(.get, "/a", response: .text("a"))
            let cassette = directory.cassette("replaced.json")
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport())
            _ = try await recorder.send(HTTPRequest(url: server.url("/a?n=1")))
            _ = try await recorder.send(HTTPRequest(url: server.url("/a?n=2")))
            let replacement = Cassette(interactions: [])
            try CassetteFile.save(replacement, to: cassette)  // atomically, as `tapedeck redact` does: a new inode
            let error = #expect(throws: CassetteError.self) { try recorder.finish() }
            guard case .changedWhileRecording(_, let change, let savedTo, let count)? = error else {
                Issue.record("expected changedWhileRecording, got \(String(describing: error))")
                return
            }
            #expect(change.contains("replaced") && count == 2, "\(error!)")
            #expect(try CassetteFile.load(cassette).interactions.isEmpty, "the replacement stays as it was written")
            #expect(try CassetteFile.load(URL(fileURLWithPath: savedTo)).interactions.count == 2)
        }
    }

    @Test func aSecondRecorderIsRefusedWhileTheFirstHoldsTheCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            server.route(.get, "/a", response: .text("a"))
            let cassette = directory.cassette("shared.json")
            let first = try openCassette(cassette, mode: .all, upstream: server.transport())
            _ = try await first.send(HTTPRequest(url: server.url("/a")))
            let error = #expect(throws: CassetteError.self) { _ = try openCassette(cassette, mode: .newEpisodes, upstream: server.transport()) }
            #expect(error.map { "\($0)" }?.contains(cassette.path) == true)
            _ = try first.finish()
            #expect(try CassetteFile.load(cassette).interactions.count == 1)
        }
    }
}
