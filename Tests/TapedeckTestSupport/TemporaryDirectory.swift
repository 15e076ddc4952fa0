import Foundation

/// A directory of a test's own under the system's temporary folder, for the files and cassettes it writes.
///
/// ``withTemporaryDirectory(isolation:_:)`` removes it when the test's body ends; a test that keeps the value itself
/// removes it with ``remove()``.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// defer { directory.remove() }
/// try Data("hello".utf8).write(to: directory.file("greeting.txt"))
/// ```
public struct TemporaryDirectory: Sendable {
    /// The directory, `tapedeck-tests-<UUID>` in the system's temporary folder.
    public let url: URL

    /// Creates a new, empty directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tapedeck-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the directory; nothing is created there.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// A cassette path in the directory, `cassette.json` unless named; nothing is created there.
    public func cassette(_ name: String = "cassette.json") -> URL {
        file(name)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a new ``TemporaryDirectory`` and removes the directory afterwards, whether `body` returns or
/// throws.
///
/// ```swift
/// try await withTemporaryDirectory { directory in
///     let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
///     _ = try await recorder.send(HTTPRequest(url: server.url("/get")))
/// }
/// ```
public func withTemporaryDirectory<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: (TemporaryDirectory) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}
