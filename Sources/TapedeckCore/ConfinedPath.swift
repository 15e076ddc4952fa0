import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that a stub, a mapping or a cassette names (a WireMock `bodyFileName`, a cassette's sidecar body), found
/// inside the folder it belongs to. Stub files can come through the admin API, so such a name is untrusted: `..`,
/// an absolute path, or a symbolic link that leads out of the folder would serve any file the server can read.
/// Symbolic links are resolved, in the folder and in the name, before the check.
///
/// ```swift
/// let body = try ConfinedPath.resolve("users/1.json", in: URL(fileURLWithPath: "stubs/__files")).get()
/// ConfinedPath.resolve("../../etc/passwd", in: files)  // .failure: "../../etc/passwd" leads out of …/__files
/// ```
public enum ConfinedPath {
    /// Why a name was refused, in words that name the path and the folder.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The name as written.
        public var name: String
        /// The folder it must stay in.
        public var root: String
        /// What is wrong.
        public var reason: String

        /// How messages and reports print it.
        public var description: String { reason }
    }

    /// `name` (relative to `root`) as an absolute file URL with every symbolic link resolved, when it exists and lies
    /// inside `root` (itself resolved); otherwise the refusal. A name that does not exist is refused too, with
    /// words that say so.
    public static func resolve(_ name: String, in root: URL) -> Result<URL, Refusal> {
        let rootPath = root.standardizedFileURL.path
        func refuse(_ reason: String) -> Result<URL, Refusal> {
            .failure(Refusal(name: name, root: rootPath, reason: reason))
        }
        let shown = Shown.quoted(name)
        guard !name.hasPrefix("/") else { return refuse("\(shown) is an absolute path; it must be relative to \(rootPath)") }
        guard !name.utf8.contains(0) else { return refuse("\(shown) contains a NUL byte") }
        guard let realRoot = realPath(rootPath) else { return refuse("\(shown) is not a readable file in \(rootPath) (which does not exist)") }
        let candidate = root.appendingPathComponent(name).standardizedFileURL.path
        guard let real = realPath(candidate) else { return refuse("\(shown) is not a readable file in \(rootPath)") }
        guard real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else {
            return refuse("\(shown) leads out of \(rootPath) (to \(Shown.truncated(real))); files must stay inside it")
        }
        return .success(URL(fileURLWithPath: real))
    }

    /// The canonical absolute path of an existing file (realpath(3)), or `nil`.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
