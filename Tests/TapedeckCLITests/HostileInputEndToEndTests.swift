import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The H9 findings run through the built `tapedeck`: each one crashed, hung, escaped or said nothing useful.
@Suite struct HostileInputEndToEndTests {
    static let regressions = CLIRunner.packageRoot.appendingPathComponent("Tools/Fuzz/Regressions")

    /// A cassette that converts: the users fixture.
    static func cassette(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.write(Fixtures.users, "users.json", in: directory.url)
    }

    @Test func convertToADeviceWritesThroughAndNeverReplacesIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let full = try await CLIRunner.run(["convert", try Self.cassette(in: directory).path, "--to", "har", "-o", "/dev/full"])
        #expect(full.status != 0)
        #expect(full.stderr.contains("could not write /dev/full: No space left on device"), "\(full.stderr)")
        var info = stat()
        #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    }

    @Test func aFolderWhereAFileIsExpectedIsSaidInWords() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inspect = try await CLIRunner.run(["inspect", directory.url.path])
        #expect(inspect.status != 0)
        #expect(inspect.stderr.contains("is a directory, not a file") && !inspect.stderr.contains("NSCocoaErrorDomain"), "\(inspect.stderr)")
        let verify = try await CLIRunner.run(["verify", "--openapi", directory.url.path, try Self.cassette(in: directory).path])
        #expect(verify.status != 0)
        #expect(verify.stderr.contains("\(directory.url.path): is a directory, not a file"), "\(verify.stderr)")
    }

    @Test func aRecursiveReferenceIsRefusedNotASegmentationFault() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let document = Self.regressions.appendingPathComponent("openapi-document/all-of-loop.yaml")
        let result = try await CLIRunner.run(["verify", "--openapi", document.path, try Self.cassette(in: directory).path])
        #expect(result.status == 1 || result.status == 2 || result.status == 64, "exited normally, not by a signal: \(result.status)")
        #expect(result.stderr.contains("$ref loop /components/schemas/Thing → "), "\(result.stderr)")
    }

    @Test func aStubFileWithAJSONSyntaxErrorNamesTheLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stubs = directory.file("stubs.json")
        // A missing comma (a trailing one is accepted, as Foundation's JSON reader accepts it).
        try Data("[\n  {\"request\": {\"path\": \"/a\"},\n   \"response\": {\"status\": 200 \"body\": \"x\"}}\n]".utf8).write(to: stubs)
        let result = try await CLIRunner.run(["serve", "--stubs", stubs.path, "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(stubs.path): invalid stub definition at $: not JSON: Invalid JSON at line 3, column"), "\(result.stderr)")
    }

    /// A 10 MB `body.encoding` took 10–23 s and printed the whole value.
    @Test func aHugeValueInAnErrorIsCutShort() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("huge.json")
        let huge = String(repeating: "x", count: 10_000_000)
        try Data(#"{"version": 1, "interactions": [{"recordedAt": "2026-11-22T03:00:00.000Z", "request": {"method": "GET", "url": "http://h/"}, "response": {"status": 200, "body": {"encoding": "\#(huge)"}}}]}"#.utf8).write(to: file)
        let result = try await CLIRunner.run(["inspect", file.path])
        #expect(result.status != 0)
        #expect(result.stderr.count < 1_000, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains(#"unknown body encoding "xxxx"#) && result.stderr.contains("…\" (10000000 characters)"), "\(result.stderr.prefix(300))")
    }
}
