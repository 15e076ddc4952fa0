import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore

/// `VCRImport` over cassettes real vcrpy recorded (Tools/dev/make-vcr-fixtures.sh) and a Ruby VCR cassette written
/// from its documented format.
@Suite struct VCRImportTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/VCR")
    static let recordedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static func load(_ name: String) throws -> VCRImport.Result {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return try VCRImport.cassette(fromYAML: text, file: name, recordedAt: recordedAt)
    }

    static func text(_ body: CassetteBody) -> String { String(decoding: body.inlineData ?? Data(), as: UTF8.self) }

    /// `path?query` of a recorded URL (the fixtures' port changes with every recording).
    static func target(_ url: String) -> String {
        let components = URLComponents(string: url)!
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    /// The binary body the fixture server answers `/binary` with: bytes 0…255, four times.
    static let binary = Data((0..<4).flatMap { _ in (0...255).map { UInt8($0) } })

    @Test func readsEveryInteractionOfAPlainVcrpyCassette() throws {
        let imported = try Self.load("vcrpy-plain.yaml")
        #expect(imported.flavour == .vcrpy)
        #expect(imported.decompressedBodies == 0)
        let interactions = imported.cassette.interactions
        #expect(interactions.map { "\($0.request.method) \(Self.target($0.request.url))" } == [
            "GET /text", "GET /json?page=2&q=a+b", "POST /users", "POST /login", "PUT /upload", "GET /binary", "GET /cookies",
            "GET /missing", "HEAD /text",
        ])
        #expect(interactions.map { $0.response?.statusCode } == [200, 200, 201, 201, 200, 200, 200, 404, 200])
        #expect(interactions.map { $0.response?.reasonPhrase } == ["OK", "OK", "Created", "Created", "OK", "OK", "OK", "Not Found", "OK"])
        #expect(interactions.allSatisfy { $0.recordedAt == Self.recordedAt && $0.response?.httpVersion == "HTTP/1.1" })

        #expect(Self.text(interactions[0].response!.body) == "plain text, with ünïcode\n")
        #expect(interactions[0].response?.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(interactions[0].request.headers["User-Agent"]?.hasPrefix("python-requests/") == true)
        #expect(interactions[0].request.headers["Accept"] == "*/*")
        #expect(interactions[0].request.body.isEmpty)

        #expect(interactions[1].request.headers["Accept"] == "application/json")
        #expect(Self.text(interactions[1].response!.body) == #"{"query": "page=2&q=a+b", "items": [1, 2, 3], "ok": true}"#)

        #expect(Self.text(interactions[2].request.body) == #"{"name": "Ada", "tags": ["x", "y"]}"#)
        #expect(interactions[2].request.headers["Content-Type"] == "application/json")
        #expect(Self.text(interactions[2].response!.body) == #"{"received": 35, "type": "application/json"}"#)

        #expect(Self.text(interactions[3].request.body) == "user=ada&remember=yes")
        #expect(interactions[3].request.headers["Content-Type"] == "application/x-www-form-urlencoded")

        #expect(interactions[4].request.body.inlineData == Self.binary.prefix(64))
        #expect(interactions[4].response?.body.inlineData == Self.binary.prefix(64))
        #expect(interactions[5].response?.body.inlineData == Self.binary)
        #expect(interactions[5].response?.headers["Content-Length"] == "1024")

        // Two Set-Cookie fields kept apart, their values redacted on the way in.
        #expect(interactions[6].response?.headers.values(for: "Set-Cookie") == ["[REDACTED]", "[REDACTED]"])
        #expect(Self.text(interactions[7].response!.body) == #"{"error":"not found"}"#)
        #expect(interactions[8].response?.body.isEmpty == true)
        #expect(interactions[8].response?.headers["Content-Length"] == "27")
    }

    static let gzipDocument = #"{"compressed": "gzip", "words": ["#
        + Array(repeating: #""alpha", "beta", "gamma""#, count: 20).joined(separator: ", ") + "]}"
    static let deflateText = String(repeating: "deflated text ", count: 40)

    @Test func readsVcrpysCompressedForms() throws {
        let imported = try Self.load("vcrpy-compressed.yaml")
        let interactions = imported.cassette.interactions
        #expect(interactions.map { Self.target($0.request.url) } == ["/gzip", "/deflate", "/gzip?client=urllib", "/deflate?client=urllib"])
        #expect(imported.decompressedBodies == 2, "the two !!binary bodies")
        #expect(imported.bodiesDecodedByTheClient == 2, "the two bodies requests decoded")
        #expect(imported.notes.isEmpty)
        for gzip in [interactions[0], interactions[2]] {
            // As Tapedeck's default transport records it: decoded, the header kept (served compressed again).
            let response = try #require(gzip.response)
            #expect(Self.text(response.body) == Self.gzipDocument)
            #expect(response.body.contentEncoding == nil)
            #expect(response.headers["Content-Encoding"] == "gzip")
        }
        for deflate in [interactions[1], interactions[3]] {
            let response = try #require(deflate.response)
            #expect(Self.text(response.body) == Self.deflateText)
            #expect(response.body.contentEncoding == nil)
            #expect(response.headers["Content-Encoding"] == nil)
            #expect(response.headers["Content-Length"] == String(Self.deflateText.utf8.count))
        }
    }

    @Test func readsBodiesVcrpyDecodedItself() throws {
        let interactions = try Self.load("vcrpy-decoded.yaml").cassette.interactions
        #expect(interactions.count == 4)
        #expect(interactions.map { Self.text($0.response!.body) } == [Self.gzipDocument, Self.deflateText, Self.gzipDocument, Self.deflateText])
        #expect(interactions.allSatisfy { $0.response?.headers["Content-Encoding"] == nil && $0.response?.body.contentEncoding == nil })
    }

    @Test func readsARubyVCRCassette() throws {
        let imported = try Self.load("ruby-vcr.yml")
        #expect(imported.flavour == .rubyVCR)
        let interactions = imported.cassette.interactions
        #expect(interactions.map(\.request.summary) == [
            "GET http://127.0.0.1:9292/greeting?name=Ada", "POST http://127.0.0.1:9292/upload",
            "GET http://127.0.0.1:9292/compressed", "DELETE http://127.0.0.1:9292/greeting/1",
        ])
        #expect(interactions.map { $0.response?.statusCode } == [200, 201, 200, 404])
        #expect(interactions.map(\.recordedAt) == (0..<4).map { Date(timeIntervalSince1970: 1_320_123_524 + Double($0)) })
        #expect(interactions[0].request.headers.map(\.name) == ["Accept-Encoding", "Accept", "User-Agent"])
        #expect(Self.text(interactions[0].response!.body) == "Hello, Ada!")
        #expect(interactions[0].response?.headers.values(for: "Set-Cookie").count == 2)
        #expect(interactions[1].request.body.inlineData == Data([0, 1, 2, 3, 250, 251, 252, 253, 254, 255]))
        #expect(Self.text(interactions[1].response!.body) == #"{"id":7,"status":"created"}"#)
        #expect(Self.text(interactions[2].response!.body) == #"{"greeting":"hello from gzip"}"#)
        #expect(interactions[2].response?.body.contentEncoding == nil && interactions[2].response?.headers["Content-Encoding"] == "gzip")
        #expect(interactions[3].response?.body.isEmpty == true && interactions[3].response?.reasonPhrase == "Not Found")
        #expect(imported.decompressedBodies == 1)
    }

    @Test(arguments: [
        ("interactions:\n- request: {method: GET, uri: 'http://h/'}\n  response:\n    status: {code: abc}\n",
         "broken.yaml:4:20: interactions[0].response.status.code: expected an integer, found 'abc'"),
        ("interactions:\n- request: {method: GET}\n  response: {status: {code: 200}}\n",
         "broken.yaml:2:12: interactions[0].request.uri: missing"),
        ("interactions:\n- request: {method: GET, uri: '/relative'}\n  response: {status: {code: 200}}\n",
         "broken.yaml:2:31: interactions[0].request.uri: '/relative' is not an absolute http or https URL"),
        ("http_interactions:\n- request: {method: get, uri: 'http://h/'}\n  response:\n    status: {code: 200}\n    body: {encoding: UTF-8, base64_string: '***'}\n",
         "broken.yaml:5:44: http_interactions[0].response.body.base64_string: not valid base64"),
        ("cassette: {}\n", "broken.yaml:1:1: neither a vcrpy cassette (no 'interactions' key) nor a Ruby VCR one (no 'http_interactions' key)"),
        ("interactions: []\nversion: 2\n", "broken.yaml:2:10: version: vcrpy cassette version 2 is not supported (1 is)"),
    ])
    func errorsNameTheFileTheLineAndThePath(yaml: String, message: String) {
        #expect {
            try VCRImport.cassette(fromYAML: yaml, file: "broken.yaml", recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)" == message
        }
    }

    /// H9: a BOM or invalid UTF-8 said only "The file isn't in the correct format".
    @Test func aByteOrderMarkIsAcceptedAndInvalidUTF8IsNamedWithItsPlace() throws {
        let text = "interactions: []\nversion: 1\n"
        let marked = try VCRImport.cassette(fromYAMLData: Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), file: "bom.yaml", recordedAt: Self.recordedAt)
        #expect(marked.cassette.interactions.isEmpty && marked.flavour == .vcrpy)
        #expect {
            try VCRImport.cassette(fromYAMLData: Data("interactions: []\nversion: é".utf8.dropLast(1)) + Data([0xFF, 0x0A]), file: "bad.yaml",
                                   recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)" == "bad.yaml:2:10: not UTF-8 text (YAML files must be UTF-8 here)"
        }
    }

    /// Anchors, aliases and `<<` merges, as vcrpy reads a cassette with them (PyYAML; the interop step's vcrpy matrix
    /// compares the two on a cassette like this one): merged headers come first, a list's mappings in their order, and
    /// the request's own header wins at the merged one's place. Of two listed mappings with one key, the earlier wins,
    /// as YAML's merge type says; a merge of a scalar is refused at its place.
    @Test func readsAnchorsAliasesAndMerges() throws {
        let text = """
        interactions:
        - request:
            body: null
            headers: &base {Accept: [application/json], X-Trace: [base]}
            method: GET
            uri: http://127.0.0.1:8080/a
          response: &ok
            body: {string: ok}
            headers: {Content-Type: [text/plain]}
            status: {code: 200, message: OK}
        - request:
            body: null
            headers:
              <<: [{X-Trace: [listed first], X-Extra: [x]}, *base]
              Accept: [text/plain]
            method: GET
            uri: http://127.0.0.1:8080/b
          response: *ok
        version: 1
        """
        let interactions = try VCRImport.cassette(fromYAML: text, file: "merged.yaml", recordedAt: Self.recordedAt).cassette.interactions
        #expect(interactions.count == 2)
        let headers = interactions[1].request.headers.map { [$0.name, $0.value] }
        #expect(headers == [["X-Trace", "listed first"], ["X-Extra", "x"], ["Accept", "text/plain"]], "\(headers)")
        #expect(interactions.allSatisfy { $0.response?.statusCode == 200 && Self.text($0.response!.body) == "ok" })
        let scalar = text.replacingOccurrences(of: "<<: [{X-Trace: [listed first], X-Extra: [x]}, *base]", with: "<<: nothing")
        #expect {
            try VCRImport.cassette(fromYAML: scalar, file: "merged.yaml", recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)" == "merged.yaml:14:11: interactions[1].request.headers: a << merge takes a mapping or a list of mappings"
        }
    }

    /// H9: the VCR reader shares the OpenAPI reader's YAML limits (YAMLDocument): an alias bomb is refused at its line.
    @Test func anAliasBombIsRefusedAtItsLine() {
        var lines = ["interactions:", "- a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 { lines.append("  a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]") }
        #expect {
            try VCRImport.cassette(fromYAML: lines.joined(separator: "\n"), file: "bomb.yaml", recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)".hasPrefix("bomb.yaml:") && "\(error)".contains("aliases expand the document past 1000000 nodes")
        }
    }

    /// H9: nesting past the YAML limit is refused with its place and the limit, before anything walks it.
    @Test func nestingPastTheLimitIsRefusedAtItsLine() {
        let deep = "version: 1\ninteractions: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n"
        #expect {
            try VCRImport.cassette(fromYAML: deep, file: "deep.yaml", recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)".hasPrefix("deep.yaml:2:") && "\(error)".contains("mappings and sequences nest deeper than 256 levels")
        }
    }

    @Test func invalidYAMLNamesTheFile() {
        #expect {
            try VCRImport.cassette(fromYAML: "interactions: [\n", file: "cut.yaml", recordedAt: Self.recordedAt)
        } throws: { error in
            "\(error)" == "cut.yaml:2:1: not valid YAML: did not find expected node content (while parsing a flow node at 2:1)"
        }
    }

    @Test func matchersMapToTapedeckRules() {
        #expect(VCRMatchOn.map(["method", "scheme", "host", "port", "path", "query"]).swift == "configuration.matching = [.method, .url]")
        #expect(VCRMatchOn.map([":method", ":uri", ":body_as_json"]).swift == "configuration.matching = [.method, .url, .json()]")
        let partial = VCRMatchOn.map(["method", "path", "port", "headers", "raw_body", "custom_thing"])
        #expect(partial.rules == [".method", ".path", ".body"])
        #expect(partial.notes.count == 3)
        #expect(partial.notes[0].hasPrefix("port: no rule of its own"))
        #expect(partial.notes[2].hasPrefix("custom_thing: no Tapedeck equivalent"))
    }
}
