import Foundation
import Testing
import TapedeckTestSupport

/// `tapedeck serve --openapi` answers as the pets document describes; `tapedeck fetch` talks to it.
@Suite struct ServeOpenAPIEndToEndTests {
    static let pets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TapedeckConformanceTests/Fixtures/pets-mock.yaml").standardized.path

    @Test func servesExamplesGeneratedValuesAndValidationErrors() async throws {
        let served = try await CLIRunner.launch(["serve", "--openapi", Self.pets, "--port", "0", "--seed", "3"])
        defer { if served.process.isRunning { served.process.terminate() } }
        try #require(!served.baseURL.isEmpty, "serve printed no base URL: \(served.printed)")
        #expect(served.printed.contains("Serving 6 operation(s) of \(Self.pets)"))

        let listed = try await CLIRunner.run(["fetch", "\(served.baseURL)/v1/pets?limit=2"])
        #expect(listed.status == 0 && listed.stdout == #"[{"id":1,"kind":"dog","name":"Rex"}]"#, "\(listed)")
        let cat = try await CLIRunner.run(["fetch", "-i", "-H", "Prefer: example=cat", "-H", "Content-Type: application/json",
                                     "-d", #"{"name":"Tom","kind":"cat"}"#, "\(served.baseURL)/v1/pets"])
        #expect(cat.stdout.hasPrefix("HTTP/1.1 201 Created\n") && cat.stdout.hasSuffix(#"{"id":3,"kind":"cat","name":"Tom"}"#), "\(cat)")
        let generated = try await CLIRunner.run(["fetch", "\(served.baseURL)/v1/pets/5"])
        let again = try await CLIRunner.run(["fetch", "\(served.baseURL)/v1/pets/5"])
        #expect(generated.stdout.contains(#""chip":"#) && generated.stdout == again.stdout, "the same seed answers the same")
        let invalid = try await CLIRunner.run(["fetch", "-i", "\(served.baseURL)/v1/pets?limit=0"])
        #expect(invalid.stdout.hasPrefix("HTTP/1.1 400 Bad Request\n"))
        #expect(invalid.stdout.contains(#""message":"0 is less than 1","place":"query parameter limit""#), "\(invalid)")

        served.process.terminate()
        served.process.waitUntilExit()
        #expect(served.process.terminationStatus == 0)
    }

    @Test func aDocumentThatCannotBeReadIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let spec = directory.url.appendingPathComponent("broken.yaml")
        try Data("openapi: 3.0.3\ninfo: {title: x}\npaths: {}\n".utf8).write(to: spec)
        let result = try await CLIRunner.run(["serve", "--openapi", spec.path, "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("broken.yaml"), "\(result.stderr)")
        let both = try await CLIRunner.run(["serve", "--openapi", Self.pets, "some.json"])
        #expect(both.status != 0 && both.stderr.contains("--openapi answers every request the stubs do not"))
    }
}
