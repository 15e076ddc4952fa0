import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// H9: `convert -o /dev/full`, run as root, replaced the device node with a regular file and exited 0. The atomic
/// write replaces only regular files; devices and FIFOs are written through, anything else is refused.
@Suite struct AtomicFileTargetTests {
    static func kind(_ path: String) -> mode_t {
        var info = stat()
        _ = lstat(path, &info)
        return info.st_mode & S_IFMT
    }

    static func failure(writing path: String) -> String? {
        do {
            try AtomicFile.write(Data("{}".utf8), to: URL(fileURLWithPath: path))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aDeviceIsWrittenThroughAndItsErrorReported() {
        #expect(Self.failure(writing: "/dev/full") == "could not write /dev/full: No space left on device")
        #expect(Self.kind("/dev/full") == S_IFCHR, "the device node is still a device")
        #expect(Self.failure(writing: "/dev/null") == nil)
        #expect(Self.kind("/dev/null") == S_IFCHR)
    }

    @Test func aFIFOIsWrittenThroughToItsReaderAndRefusedWithoutOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.file("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(Self.failure(writing: fifo) == "could not write \(fifo): is a FIFO with no reader")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(Self.failure(writing: fifo) == nil)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 2 && buffer[0..<2] == [UInt8(ascii: "{"), UInt8(ascii: "}")])
        #expect(Self.kind(fifo) == S_IFIFO, "the FIFO is still a FIFO")
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.file("real.json")
        try Data("old".utf8).write(to: target)
        let link = directory.file("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        #expect(Self.failure(writing: link) == nil)
        #expect(Self.kind(link) == S_IFLNK, "the link is still a link")
        #expect(try Data(contentsOf: target) == Data("{}".utf8), "its target got the contents")
    }

    @Test func aDirectoryIsRefusedInWords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(Self.failure(writing: directory.url.path) == "could not write \(directory.url.path): is a directory, not a file")
    }

    @Test func aTemporaryFileNamesWhatItWasToBecome() {
        #expect(AtomicFile.target(ofTemporary: ".0123456789abcdef.cache.812.4000000000.tmp") == "0123456789abcdef.cache")
        #expect(AtomicFile.target(ofTemporary: ".tmp-123") == nil)
        #expect(AtomicFile.target(ofTemporary: ".notes.tmp") == nil)
        #expect(AtomicFile.target(ofTemporary: ".a.b.1.x.tmp") == nil)
    }

    @Test func aMissingDirectoryIsCreatedOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("new/inner.json")
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Data("{}".utf8), to: file, creatingDirectory: false) }
        try AtomicFile.write(Data("{}".utf8), to: file)
        #expect(try Data(contentsOf: file) == Data("{}".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("new").path) == ["inner.json"])
    }
}
