import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckTestSupport

/// `Redaction.redactFile(at:writing:)` (what `tapedeck redact` runs): sidecar bodies are redacted too, their secrets
/// are scrubbed from the rest of the cassette, and the file set is never left pointing at a missing sidecar.
@Suite struct FileRedactionTests {
    static let password = "hunter2-but-much-longer"

    /// A cassette written without redaction: a large login request in a sidecar, whose password a later response
    /// echoes inline, and a second interaction sharing nothing secret.
    static func unredactedCassette(in directory: TemporaryDirectory) throws -> (url: URL, sidecar: String) {
        let url = directory.cassette("login.json")
        let login = Data(#"{"user":"ada","password":"\#(password)","padding":"\#(String(repeating: "p", count: 4096))"}"#.utf8)
        let sidecar = "login.bodies/original.bin"
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("login.bodies"), withIntermediateDirectories: true)
        try login.write(to: directory.url.appendingPathComponent(sidecar))
        let cassette = Cassette(interactions: [
            Interaction(request: .init(method: "POST", url: "https://api.example.com/login", headers: ["Content-Type": "application/json"],
                                       body: CassetteBody(sidecar: sidecar, byteCount: Int64(login.count))),
                        outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/plain"],
                                                 body: CassetteBody(Data("welcome back, you typed \(password)".utf8))))),
            Interaction(request: .init(method: "GET", url: "https://api.example.com/status"),
                        outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("ok".utf8))))),
        ])
        try CassetteFile.save(cassette, to: url)
        return (url, sidecar)
    }

    @Test func aSecretInASidecarIsRedactedThereAndScrubbedEverywhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, sidecar) = try Self.unredactedCassette(in: directory)

        let result = try Redaction.default.redactFile(at: url)
        #expect(result.sidecars.map(\.place) == ["interactions[0].request.body"])
        let newSidecar = try #require(result.sidecars.first?.to)
        #expect(newSidecar != sidecar && newSidecar.hasPrefix("login.bodies/") && newSidecar.hasSuffix(".bin"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(sidecar).path), "the old sidecar is removed")

        let saved = try CassetteFile.load(url)
        let body = try CassetteFile.bodyData(saved.interactions[0].request.body, cassette: url)
        let standIn = try #require(JSONValue(parsing: body)?["password"]?.stringValue)
        #expect(StandIn.isStandIn(standIn) && JSONValue(parsing: body)?["user"] == "ada")
        #expect(saved.interactions[0].response?.body.inlineData == Data("welcome back, you typed \(standIn)".utf8),
                "the copy in another part is scrubbed")
        #expect(saved.interactions[1] == result.original.interactions[1], "nothing that is not a secret changes")
        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) {
            let bytes = (try? Data(contentsOf: directory.url.appendingPathComponent(file))) ?? Data()
            #expect(bytes.range(of: Data(Self.password.utf8)) == nil, "\(file) still holds the password")
        }
        #expect(try Redaction.default.redactFile(at: url).changed == false, "a second run changes nothing")
    }

    @Test func aDryRunWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, sidecar) = try Self.unredactedCassette(in: directory)
        let before = try Data(contentsOf: url)
        let result = try Redaction.default.redactFile(at: url, writing: false)
        #expect(result.changed && result.sidecars.count == 1)
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("login.bodies").path)
                == [URL(fileURLWithPath: sidecar).lastPathComponent])
    }

    @Test func aMissingSidecarIsAnErrorNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (url, sidecar) = try Self.unredactedCassette(in: directory)
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(sidecar))
        #expect {
            _ = try Redaction.default.redactFile(at: url)
        } throws: { error in
            "\(error)".contains("original.bin")
        }
    }
}
