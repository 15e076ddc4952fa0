import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A disk that fills up while a cassette records: a tmpfs of a few hundred KiB when the process may mount (root
/// here), else the process's file-size limit (`RLIMIT_FSIZE`, SIGXFSZ ignored, so a write past it fails with EFBIG).
/// `TAPEDECK_TEST_DISK_LIMIT=rlimit` takes the second way even where the first works.
enum DiskLimit {
    case tmpfs(ScratchMount)
    case fileSize(Int, why: String)

    /// Makes `folder` (which must exist) a disk of `bytes`.
    static func make(_ folder: URL, bytes: Int) throws -> DiskLimit {
        if ProcessInfo.processInfo.environment["TAPEDECK_TEST_DISK_LIMIT"] == "rlimit" {
            return .fileSize(bytes, why: "TAPEDECK_TEST_DISK_LIMIT=rlimit")
        }
        guard ScratchMount.isPermitted else { return .fileSize(bytes, why: "mounting is not permitted here") }
        return .tmpfs(try ScratchMount.tmpfs(at: folder, bytes: bytes))
    }

    /// How the test made the disk full, for its output.
    var how: String {
        switch self {
        case .tmpfs(let mount): "a tmpfs mounted at \(mount.path)"
        case .fileSize(let bytes, let why): "RLIMIT_FSIZE of \(bytes) bytes (\(why))"
        }
    }

    /// What the kernel says when a write does not fit.
    var reason: String {
        switch self {
        case .tmpfs: String(cString: strerror(ENOSPC))
        case .fileSize: String(cString: strerror(EFBIG))
        }
    }

    /// Runs `body` with the disk limited. The file-size limit is the whole process's: it is set only for `body` and
    /// put back right after.
    func whileLimited<T>(_ body: () async throws -> T) async throws -> T {
        guard case .fileSize(let bytes, _) = self else { return try await body() }
        var saved = rlimit()
        guard getrlimit(RLIMIT_FSIZE_RESOURCE, &saved) == 0 else { throw ScratchMount.Refused(description: "getrlimit failed") }
        var limited = saved
        limited.rlim_cur = rlim_t(bytes)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        guard setrlimit(RLIMIT_FSIZE_RESOURCE, &limited) == 0 else {
            signal(SIGXFSZ, previousHandler)
            throw ScratchMount.Refused(description: "setrlimit(RLIMIT_FSIZE) failed: \(String(cString: strerror(errno)))")
        }
        defer {
            _ = setrlimit(RLIMIT_FSIZE_RESOURCE, &saved)
            signal(SIGXFSZ, previousHandler)
        }
        return try await body()
    }

    func remove() {
        if case .tmpfs(let mount) = self { mount.unmount() }
    }
}

private let RLIMIT_FSIZE_RESOURCE = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)

/// Serialized: the fallback limits the size of every file the test process writes while a request is recorded.
@Suite(.serialized) struct DiskFullTests {
    @Test func aFullDiskIsAClearErrorAndEveryInteractionCompletedBeforeItLoads() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = directory.file("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        // The journal grows a MiB at a time: the first MiB fits, the second does not.
        let limit = try DiskLimit.make(disk, bytes: 1536 << 10)
        defer { limit.remove() }
        print("DiskFullTests: the disk is made full with \(limit.how)")
        let body = String(repeating: "0123456789abcdef", count: 200 << 6)  // 200 KiB, recorded inline
        try await withStubServer { server in
            server.route(.get, "/blob", response: .text(body))
            let cassette = disk.appendingPathComponent("full.json")
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport(),
                                            configuration: CassetteConfiguration(sidecarThreshold: 1 << 20))
            var completed: [String] = []
            var fault: (any Error)?
            for index in 0..<12 where fault == nil {
                let url = server.url("/blob?n=\(index)")
                do {
                    _ = try await limit.whileLimited { try await recorder.send(HTTPRequest(url: url)) }
                    completed.append(url.absoluteString)
                } catch {
                    fault = error
                }
            }
            let error = try #require(fault as? CassetteError, "the disk filled up within 12 recordings of 200 KiB: \(String(describing: fault))")
            #expect(error.description.contains(limit.reason) && error.description.contains(disk.path),
                    "the error says what and where: \(error)")
            #expect(completed.count >= 2, "recordings went to disk until it was full")
            do {
                _ = try await limit.whileLimited { try recorder.finish() }
            } catch let finishing as CassetteError {
                // Folding the journal into the file needs room the journal itself takes: refused, and said where.
                #expect(finishing.description.contains(cassette.path), "\(finishing)")
            }
            let loaded = try CassetteFile.load(cassette)
            #expect(loaded.interactions.map(\.request.url) == completed,
                    "every interaction completed before the fault is on disk, and nothing half-written")
            #expect(loaded.interactions.allSatisfy { $0.response?.body.inlineData == Data(body.utf8) })
        }
    }
}
