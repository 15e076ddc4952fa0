import Foundation
import Testing
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `--junit`, `--json`, `--ca-file` and `--ca-out` are written as `-o` is (AtomicFile): a symbolic link is written through and
/// kept, a device is written through and never replaced, a folder is refused in words.
@Suite struct OutputFileEndToEndTests {
    static let openAPI = CLIRunner.packageRoot.appendingPathComponent("Tests/TapedeckConformanceTests/Fixtures/users-api.yaml")

    @Test func aJUnitReportGoesThroughASymbolicLinkAndIsRefusedForAFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = try Fixtures.write(Fixtures.users, "users.json", in: directory.url)
        let target = directory.file("report.xml"), link = directory.file("link.xml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try await CLIRunner.run(["verify", "--openapi", Self.openAPI.path, cassette.path, "--junit", link.path])
        #expect(linked.stderr.isEmpty, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path, "the link stays a link")
        #expect(try String(contentsOf: target, encoding: .utf8).contains("<testsuite"))
        let folder = try await CLIRunner.run(["verify", "--openapi", Self.openAPI.path, cassette.path, "--junit", directory.url.path])
        #expect(folder.status == 1)
        #expect(folder.stderr.contains("could not write the JUnit report to \(directory.url.path): is a directory, not a file"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("NSCocoaErrorDomain"), "\(folder.stderr)")
    }

    @Test func theCACertificateOfServeTLSIsWrittenThroughADeviceNotOverIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = try Fixtures.write(Fixtures.users, "users.json", in: directory.url)
        let result = try await CLIRunner.run(["serve", cassette.path, "--port", "0", "--tls", "--ca-file", "/dev/full"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("could not write the CA certificate to /dev/full: No space left on device"), "\(result.stderr)")
        var info = stat()
        #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    }

    @Test func theProxysCACertificateGoesThroughASymbolicLinkAndADeviceAndIsRefusedForAFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = try Fixtures.write(Fixtures.users, "users.json", in: directory.url)
        let full = try await CLIRunner.run(["serve", "--proxy", "--cassette", cassette.path, "--port", "0", "--ca-out", "/dev/full"])
        #expect(full.status != 0)
        #expect(full.stderr.contains("could not write the CA certificate to /dev/full: No space left on device"), "\(full.stderr)")
        var info = stat()
        #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
        let folder = try await CLIRunner.run(["serve", "--proxy", "--cassette", cassette.path, "--port", "0", "--ca-out", directory.url.path])
        #expect(folder.status != 0)
        #expect(folder.stderr.contains("could not write the CA certificate to \(directory.url.path): is a directory, not a file"),
                "\(folder.stderr)")
        #expect(!folder.stderr.contains("NSCocoaErrorDomain"), "\(folder.stderr)")
        let target = directory.file("ca.pem"), link = directory.file("link.pem")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let served = try await CLIRunner.launch(["serve", "--proxy", "--cassette", cassette.path, "--port", "0", "--ca-out", link.path])
        defer { if served.process.isRunning { served.process.terminate() } }
        #expect(served.printed.contains("CA certificate (PEM): \(link.path)"), "\(served.printed)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path, "the link stays a link")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
    }
}
