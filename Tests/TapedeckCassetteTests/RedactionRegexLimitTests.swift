import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// A regular-expression redaction filter runs within `RegexStepLimit` (issue H9). Where it gives up, what it gave up
/// on may hold the secret it was to remove: that text becomes the placeholder whole, and the writers (recording,
/// `redact`) refuse to write, naming the filter and the place.
@Suite struct RedactionRegexLimitTests {
    /// Catastrophic at the start of a value (`^(a+)+$` against 40 a's and a `b`), and a secret later in it that the
    /// filter's second branch would have removed.
    static let pattern = #"^(a+)+$|tok-[0-9]+"#
    static let secret = "tok-12345"
    static let hostile = String(repeating: "a", count: 40) + "b " + secret
    static let gaveUp = "redaction filter regex /\(pattern)/ gave up after \(RegexStepLimit.steps) backtracking steps (the step limit of one match)"

    static func redaction() throws -> Redaction {
        Redaction(filters: [try .regex(pattern)], redactsDefaults: false)
    }

    static func interaction(trace: String) -> Interaction {
        Interaction(request: .init(method: "GET", url: "https://api.example.com/items", headers: ["X-Trace": trace]),
                    outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("ok".utf8)))))
    }

    @Test func aValueTheFilterGaveUpOnBecomesThePlaceholderWhole() throws {
        var hostile = Self.interaction(trace: Self.hostile)
        try Self.redaction().redact(&hostile)
        #expect(hostile.request.headers["X-Trace"] == Redaction.placeholder)
        // The same filter on an ordinary value replaces the match alone.
        var ordinary = Self.interaction(trace: "id \(Self.secret)")
        try Self.redaction().redact(&ordinary)
        #expect(ordinary.request.headers["X-Trace"] == "id \(Redaction.placeholder)")
    }

    @Test func redactingAFileRefusesNamingTheFilterAndThePlaceAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("traces.json")
        try CassetteFile.save(Cassette(interactions: [Self.interaction(trace: "id \(Self.secret)"), Self.interaction(trace: Self.hostile)]), to: url)
        let before = try Data(contentsOf: url)
        let error = #expect(throws: CassetteError.self) { try Self.redaction().redactFile(at: url) }
        guard case .redactionGaveUp(let file, let place, let problems)? = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(file == url.path && place == "interactions[1]" && problems == [Self.gaveUp])
        #expect(error?.description.contains("was not written") == true)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func recordingRefusesTheInteractionAndNoSecretReachesDisk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/items") { _ in StubResponse(status: 200, body: .data(Data("ok".utf8))) }
        var configuration = CassetteConfiguration()
        configuration.redaction = try Self.redaction()
        let cassette = directory.cassette("recorded.json")
        let recorder = try openCassette(cassette, mode: .all, upstream: CurlTransport(), configuration: configuration)
        let request = HTTPRequest(method: .get, url: server.url("/items"), headers: ["X-Trace": Self.hostile])
        do {
            _ = try await recorder.send(request)
            Issue.record("the interaction was recorded")
        } catch let error as CassetteError {
            guard case .redactionGaveUp(let file, let place, let problems) = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(file == cassette.path && place == "GET \(server.url("/items").absoluteString)" && problems == [Self.gaveUp])
        }
        _ = try? recorder.finish()
        for file in (try? FileManager.default.contentsOfDirectory(at: directory.url, includingPropertiesForKeys: nil)) ?? [] {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            #expect(bytes.range(of: Data(Self.secret.utf8)) == nil, "\(file.lastPathComponent) holds the secret")
        }
    }

    /// A body bound for a sidecar file is redacted before it is written; a filter that gives up there refuses too.
    @Test func aSidecarBodyTheFilterGaveUpOnIsNeverWritten() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/trace") { _ in StubResponse(status: 200, headers: ["Content-Type": "text/plain"], body: .data(Data(Self.hostile.utf8))) }
        var configuration = CassetteConfiguration()
        configuration.redaction = try Self.redaction()
        configuration.sidecarThreshold = 16
        let cassette = directory.cassette("sidecar.json")
        let recorder = try openCassette(cassette, mode: .all, upstream: CurlTransport(), configuration: configuration)
        do {
            _ = try await recorder.send(HTTPRequest(method: .get, url: server.url("/trace")))
            Issue.record("the interaction was recorded")
        } catch let error as CassetteError {
            guard case .redactionGaveUp(_, let place, let problems) = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(place == "a \(Self.hostile.utf8.count)-byte body bound for a sidecar file" && problems == [Self.gaveUp])
        }
        _ = try? recorder.finish()
        let files = FileManager.default.enumerator(at: directory.url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            #expect(bytes.range(of: Data(Self.secret.utf8)) == nil, "\(file.lastPathComponent) holds the secret")
        }
    }
}
