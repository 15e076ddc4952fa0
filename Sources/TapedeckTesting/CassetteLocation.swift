import Foundation

/// Where a test's cassette lives: `<root>/<Module>/<Suite>/<Nested suite>/<test name>[--<arguments>].json`.
///
/// The root defaults to the `Cassettes/` folder of the package that contains the test's source file (the nearest
/// ancestor folder with a `Package.swift`), or `TAPEDECK_CASSETTE_ROOT` when that is set. Names are kept readable:
/// a test `login()` in suite `AuthTests` of test target `AppTests` records to `Cassettes/AppTests/AuthTests/login.json`;
/// a parameterized case adds its arguments, `Cassettes/AppTests/AuthTests/status--404.json`.
///
/// ```swift
/// let url = CassetteLocation.url(name: nil, suitePath: ["AppTests", "AuthTests"], testName: "login()", arguments: [],
///                                sourceFile: #filePath, root: nil)
/// ```
public enum CassetteLocation {
    /// The environment variable that moves every derived cassette under another root folder.
    public static let rootEnvironmentVariable = "TAPEDECK_CASSETTE_ROOT"

    /// The cassette file for a test.
    ///
    /// - Parameters:
    ///   - name: an explicit cassette name (a relative path without `.json` is fine, e.g. `"auth/login"`); when
    ///     given, it replaces the test-derived file name but stays under the suite folders.
    ///   - suitePath: the test module, then the enclosing suite type names, outermost first.
    ///   - testName: the test function's name, as Swift Testing or XCTest reports it.
    ///   - arguments: the parameterized case's arguments, rendered for display.
    ///   - sourceFile: the test's source file, used to find the package root.
    ///   - root: an explicit root folder, which wins over everything else.
    ///   - environment: where `TAPEDECK_CASSETTE_ROOT` is read.
    public static func url(
        name: String?, suitePath: [String], testName: String, arguments: [String], sourceFile: String,
        root: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        var url = resolvedRoot(root: root, sourceFile: sourceFile, environment: environment)
        for suite in suitePath { url.appendPathComponent(sanitized(suite)) }
        var file = name.map { $0.hasSuffix(".json") ? String($0.dropLast(5)) : $0 } ?? sanitized(functionName(testName))
        if name == nil, !arguments.isEmpty {
            file += "--" + arguments.map(sanitized).joined(separator: "-")
        }
        return url.appendingPathComponent(file + ".json")
    }

    /// The root folder: `root`, else `TAPEDECK_CASSETTE_ROOT`, else `<package>/Cassettes`, else `./Cassettes`.
    static func resolvedRoot(root: URL?, sourceFile: String, environment: [String: String]) -> URL {
        if let root { return root }
        if let configured = environment[rootEnvironmentVariable], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        if let package = packageRoot(containing: sourceFile) {
            return package.appendingPathComponent("Cassettes", isDirectory: true)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent("Cassettes", isDirectory: true)
    }

    /// The nearest folder above `file` that holds a `Package.swift`.
    static func packageRoot(containing file: String) -> URL? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// `login(user:)` → `login`; XCTest's `-[AuthTests testLogin]` or `AuthTests.testLogin` → `testLogin`.
    static func functionName(_ testName: String) -> String {
        var name = testName
        if name.hasPrefix("-["), name.hasSuffix("]") {
            name = String(name.dropFirst(2).dropLast()).split(separator: " ").last.map(String.init) ?? name
        }
        if let dot = name.lastIndex(of: "."), !name.contains("(") { name = String(name[name.index(after: dot)...]) }
        if let parenthesis = name.firstIndex(of: "(") { name = String(name[..<parenthesis]) }
        return name
    }

    /// A file-name-safe rendering: letters, digits, `-`, `_` and `.` are kept, runs of anything else become `_`,
    /// and the result is at most 80 characters.
    static func sanitized(_ text: String) -> String {
        var result = ""
        var lastWasReplacement = false
        for scalar in text.unicodeScalars {
            let safe = CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "-_.".unicodeScalars.contains(scalar)
            if safe {
                result.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                result.append("_")
                lastWasReplacement = true
            }
        }
        let trimmed = result.trimmingCharacters(in: CharacterSet(charactersIn: "_."))
        return trimmed.isEmpty ? "_" : String(trimmed.prefix(80))
    }
}
