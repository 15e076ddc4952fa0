import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A contract written by `tapedeck convert --to pact` passes Pact's reference verifier (pact-python 3+, the Rust
/// pact_ffi core, run by Tools/Interop/pact-verify.sh, which installs it with pip on first use) against `tapedeck
/// serve` serving the same cassette, and fails it, naming the interaction and the difference, when the served
/// cassette disagrees. Everything talks over 127.0.0.1.
@Suite(.serialized) struct PactVerifierTests {
    static let script = CLIRunner.packageRoot.appendingPathComponent("Tools/Interop/pact-verify.sh")

    @Test func theReferenceVerifierAcceptsTheContractAgainstTheServedCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = try Fixtures.write(PactExportTests.cassette, "users.json", in: directory.url)
        let contract = try await export(cassette, in: directory.url)
        let result = try await verify(contract, serving: cassette)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Verifying a pact between users and api.example.com"), "\(result.output)")
        #expect(!result.output.contains("FAILED"), "\(result.output)")
    }

    @Test func theReferenceVerifierReportsWhereTheServedCassetteDisagrees() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = try Fixtures.write(PactExportTests.cassette, "users.json", in: directory.url)
        let contract = try await export(cassette, in: directory.url)
        var changed = PactExportTests.cassette
        guard case .response(var response) = changed.interactions[1].outcome else {
            Issue.record("the second interaction has no response")
            return
        }
        response.body = Fixtures.json(#"{"id":2,"name":"Rob"}"#)
        changed.interactions[1].outcome = .response(response)
        let served = try Fixtures.write(changed, "changed.json", in: directory.url)
        let result = try await verify(contract, serving: served)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("Verifying a pact between users and api.example.com - POST /users"), "\(result.output)")
        #expect(result.output.contains("$.name"), "\(result.output)")
        #expect(result.output.contains("There were 1 pact failures"), "\(result.output)")
    }

    private func export(_ cassette: URL, in directory: URL) async throws -> URL {
        let contract = directory.appendingPathComponent("contract.json")
        let result = try await CLIRunner.run(["convert", cassette.path, "--to", "pact", "-o", contract.path])
        try #require(result.status == 0, "\(result.stderr)")
        return contract
    }

    /// Serves `cassette` with `tapedeck serve` and runs the verifier against it (at most 300 s, pip included).
    private func verify(_ contract: URL, serving cassette: URL) async throws -> (status: Int32, output: String) {
        let served = try await CLIRunner.startServing(["serve", cassette.path, "--port", "0"])
        defer {
            if served.process.isRunning { served.process.terminate() }
            served.process.waitUntilExit()
        }
        try #require(!served.baseURL.isEmpty, "serve printed no base URL")
        let verifier = try await ExternalCommand.run(URL(fileURLWithPath: "/bin/bash"),
                                                     [Self.script.path, contract.path, served.baseURL, "api.example.com"],
                                                     timeLimit: 300)
        let text = String(decoding: verifier.standardOutput, as: UTF8.self) + verifier.standardError
        try #require(verifier.status != 2, "the Pact verifier could not be installed: \(text)")
        return (verifier.status, text)
    }
}
