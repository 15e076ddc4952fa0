import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport

/// H9: a folder given where a file is expected said "NSCocoaErrorDomain error 256".
@Suite struct InputFileTests {
    static func reason(_ path: String) -> String? {
        do {
            _ = try InputFile.read(URL(fileURLWithPath: path))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func unreadablePathsAreSaidInWords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(Self.reason(directory.url.path) == "\(directory.url.path): is a directory, not a file")
        #expect(Self.reason(directory.url.path + "/missing.json") == "\(directory.url.path)/missing.json: does not exist")
        let file = directory.file("a.json")
        try Data("[1]".utf8).write(to: file)
        #expect(Self.reason(file.path + "/x") == "\(file.path)/x: does not exist (a part of the path is not a directory)")
        #expect(try InputFile.read(file) == Data("[1]".utf8))
        #expect(throws: InputFile.Failure.self) { try InputFile.read(file, maximumBytes: 2) }
    }
}
