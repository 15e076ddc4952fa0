import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore
import TapedeckTestSupport

/// `tapedeck convert --from vcr` run as a process, and the converted cassette replayed.
@Suite struct ConvertVCREndToEndTests {
    @Test func convertsAVcrpyCassetteThatThenReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = VCRImportTests.folder.appendingPathComponent("vcrpy-plain.yaml")
        let output = directory.cassette("imported.json")
        let result = try await CLIRunner.run(["convert", "--from", "vcr", source.path, "-o", output.path,
                                        "--match-on", "method,scheme,host,port,path,query"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Read 9 interaction(s) from a vcrpy cassette"))
        #expect(result.stderr.contains("Matching: configuration.matching = [.method, .url]"))

        // The file is exactly the in-process import, dated by the source's modification time.
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date)
        let expected = try VCRImport.cassette(fromYAML: String(contentsOf: source, encoding: .utf8), file: source.path, recordedAt: modified)
        #expect(try Data(contentsOf: output) == CassetteCodec.encode(expected.cassette))

        let cassette = try CassetteFile.load(output)
        let transport = try openCassette(output, mode: .replay)
        let json = try #require(URL(string: cassette.interactions[1].request.url))
        var request = HTTPRequest(url: json)
        request.headers["Accept"] = "application/json"
        let response = try await transport.send(request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.data ?? Data(), as: UTF8.self) == #"{"query": "page=2&q=a+b", "items": [1, 2, 3], "ok": true}"#)
    }

    @Test func aYAMLFileIsReadAsVCRAndCanBecomeHAR() async throws {
        let source = VCRImportTests.folder.appendingPathComponent("ruby-vcr.yml")
        // `-o -` is stdout, as without -o (it once wrote a file named "-").
        let result = try await CLIRunner.run(["convert", source.path, "--to", "har", "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Read 4 interaction(s) from a Ruby VCR cassette (1 compressed body(ies) decoded)"))
        let har = try HARCodec.import(Data(result.stdout.utf8))
        #expect(har.interactions.map(\.request.method) == ["GET", "POST", "GET", "DELETE"])
    }

    @Test func aBrokenCassetteIsNamedWithItsLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let broken = directory.file("broken.yaml")
        try Data("interactions:\n- request: {method: GET, uri: 'http://h/'}\n  response: {status: {code: 99}}\n".utf8).write(to: broken)
        let result = try await CLIRunner.run(["convert", broken.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("could not read the VCR cassette \(broken.path): line 3, column 29: interactions[0].response.status.code: 99 is not an HTTP status code"), "\(result.stderr)")
        let misplaced = try await CLIRunner.run(["convert", broken.path, "--from", "har"])
        #expect(misplaced.status != 0)
    }
}
